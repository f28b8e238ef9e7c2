// SPDX-License-Identifier: Apache-2.0
// graft-runtime's own command line: what Docker and containerd send runc
// (global options in every Go flag form, a command, its options), with
// graft's --graft-policy among the global options. The real runtime must get
// the same arguments less graft's own; --log and --log-format say where
// graft-runtime's errors go too. (What the command does is read by the real
// runtime's grammar: runtime_command_test.cpp.)
#include <catch2/catch.hpp>

#include "runtime_command_line.hpp"

using graft::runtime::parse_runtime_command_line;
using graft::runtime::RuntimeCommandLine;
using Args = std::vector<std::string>;

namespace {

RuntimeCommandLine parsed_runtime_line(const Args& args) {
  auto line = parse_runtime_command_line(args);
  INFO((line ? std::string() : line.error().message));
  REQUIRE(line);
  return std::move(line).value();
}

std::string runtime_line_error(const Args& args) {
  auto line = parse_runtime_command_line(args);
  REQUIRE_FALSE(line);
  return line.error().message;
}

}  // namespace

TEST_CASE("containerd's create command line passes through whole, with its log found", "[runtime]") {
  Args args{"--root", "/run/containerd/runc/default", "--log", "/run/c/log.json", "--log-format",
            "json", "create", "--bundle", "/run/c/bundle", "--pid-file", "/run/c/init.pid", "c1"};
  auto line = parsed_runtime_line(args);
  CHECK(line.runtime_args == args);
  CHECK(line.log_path == "/run/c/log.json");
  CHECK(line.log_format == "json");
  CHECK(line.policy_path.empty());
}

TEST_CASE("a --graft-policy before the command is graft's and the rest passes through in order",
          "[runtime]") {
  auto line = parsed_runtime_line({"--graft-policy", "/etc/site.toml", "--root", "/r", "create",
                                   "--bundle", "/b", "c1"});
  CHECK(line.policy_path == "/etc/site.toml");
  CHECK(line.runtime_args == Args{"--root", "/r", "create", "--bundle", "/b", "c1"});
}

TEST_CASE("a --graft-policy=FILE, and a --graft-policy between global options, are graft's too",
          "[runtime]") {
  auto line = parsed_runtime_line({"--root", "/r", "--graft-policy=/p.toml", "--systemd-cgroup",
                                   "delete", "c1"});
  CHECK(line.policy_path == "/p.toml");
  CHECK(line.runtime_args == Args{"--root", "/r", "--systemd-cgroup", "delete", "c1"});
}

TEST_CASE("a --graft-policy after the command belongs to the command and passes through",
          "[runtime]") {
  Args args{"exec", "c1", "sh", "--graft-policy", "x"};
  auto line = parsed_runtime_line(args);
  CHECK(line.policy_path.empty());
  CHECK(line.runtime_args == args);
}

TEST_CASE("a --graft-policy without a file, or given twice, is an error", "[runtime]") {
  CHECK(runtime_line_error({"--graft-policy"}) == "--graft-policy needs a policy file");
  CHECK(runtime_line_error({"--graft-policy="}) == "--graft-policy needs a policy file");
  CHECK(runtime_line_error({"--graft-policy", "a", "--graft-policy", "b", "state", "c1"}) ==
        "--graft-policy is given twice");
}

TEST_CASE("global options that take a value are skipped whole in both forms, one dash or two",
          "[runtime]") {
  // A value that reads like an option or a command must not end them.
  Args args{"--root", "create", "--log=/l", "-log-format", "text", "--criu", "/c", "--rootless",
            "false", "-root=/r2", "--graft-policy", "/p", "run", "-b", "/b", "c2"};
  auto line = parsed_runtime_line(args);
  CHECK(line.policy_path == "/p");
  CHECK(line.log_path == "/l");
  CHECK(line.log_format == "text");
  CHECK(line.runtime_args == Args{"--root", "create", "--log=/l", "-log-format", "text", "--criu", "/c",
                                  "--rootless", "false", "-root=/r2", "run", "-b", "/b", "c2"});
}

TEST_CASE("a command line without a command passes through", "[runtime]") {
  CHECK(parsed_runtime_line({"--version"}).runtime_args == Args{"--version"});
  CHECK(parsed_runtime_line({}).runtime_args.empty());
}

TEST_CASE("a -- ends the global options: a --graft-policy after it is the runtime's", "[runtime]") {
  Args args{"--root", "/r", "--", "--graft-policy", "/p"};
  auto line = parsed_runtime_line(args);
  CHECK(line.policy_path.empty());
  CHECK(line.runtime_args == args);
}
