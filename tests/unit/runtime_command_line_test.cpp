// graft-runtime's command line: what Docker and containerd send runc (global
// options in every Go flag form, a command, its options), with graft's
// --graft-policy among the global options. The real runtime must get the
// same arguments less graft's own; create and run yield bundle and id.
#include <catch2/catch.hpp>

#include "runtime_command_line.hpp"

using graft::runtime::creates_container;
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

TEST_CASE("containerd's create command line passes through whole, with bundle and id found",
          "[runtime]") {
  Args args{"--root", "/run/containerd/runc/default", "--log", "/run/c/log.json", "--log-format",
            "json", "create", "--bundle", "/run/c/bundle", "--pid-file", "/run/c/init.pid", "c1"};
  auto line = parsed_runtime_line(args);
  CHECK(line.runtime_args == args);
  CHECK(line.command == "create");
  CHECK(line.bundle == "/run/c/bundle");
  CHECK(line.container_id == "c1");
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
  CHECK(line.command == "delete");
}

TEST_CASE("a --graft-policy after the command belongs to the command and passes through",
          "[runtime]") {
  Args args{"exec", "c1", "sh", "--graft-policy", "x"};
  auto line = parsed_runtime_line(args);
  CHECK(line.policy_path.empty());
  CHECK(line.runtime_args == args);
  CHECK(line.command == "exec");
}

TEST_CASE("a --graft-policy without a file, or given twice, is an error", "[runtime]") {
  CHECK(runtime_line_error({"--graft-policy"}) == "--graft-policy needs a policy file");
  CHECK(runtime_line_error({"--graft-policy="}) == "--graft-policy needs a policy file");
  CHECK(runtime_line_error({"--graft-policy", "a", "--graft-policy", "b", "state", "c1"}) ==
        "--graft-policy is given twice");
}

TEST_CASE("global options that take a value are skipped whole in both forms, one dash or two",
          "[runtime]") {
  // A value that reads like a command must not be taken for one.
  Args args{"--root", "create", "--log=/l", "-log-format", "text", "--criu", "/c", "--rootless",
            "false", "-root=/r2", "run", "-b", "/b", "c2"};
  auto line = parsed_runtime_line(args);
  CHECK(line.runtime_args == args);
  CHECK(line.command == "run");
  CHECK(line.log_path == "/l");
  CHECK(line.log_format == "text");
  CHECK(line.bundle == "/b");
  CHECK(line.container_id == "c2");
}

TEST_CASE("flag options take no value: the argument after them is the command", "[runtime]") {
  auto line = parsed_runtime_line({"--debug", "--systemd-cgroup", "--systemd-cgroup=true", "state", "c1"});
  CHECK(line.command == "state");
  CHECK(line.runtime_args.size() == 5);
}

TEST_CASE("create's own options are skipped to find the id, and the bundle's forms all count",
          "[runtime]") {
  CHECK(parsed_runtime_line({"create", "--bundle=/b1", "--no-pivot", "c1"}).bundle == "/b1");
  CHECK(parsed_runtime_line({"create", "-b", "/b2", "c1"}).bundle == "/b2");
  CHECK(parsed_runtime_line({"create", "-bundle", "/b3", "c1"}).bundle == "/b3");
  CHECK(parsed_runtime_line({"create", "-b=/b4", "c1"}).bundle == "/b4");
  auto line = parsed_runtime_line({"run", "-d", "--console-socket", "/s", "--preserve-fds", "2",
                                   "--pid-file", "/p", "--keep", "c9"});
  CHECK(line.container_id == "c9");
  CHECK(line.bundle.empty());  // the current directory, as runc takes it
}

TEST_CASE("a command line without a command passes through, with nothing found", "[runtime]") {
  auto line = parsed_runtime_line({"--version"});
  CHECK(line.command.empty());
  CHECK(line.runtime_args == Args{"--version"});
  CHECK(parsed_runtime_line({}).runtime_args.empty());
}

TEST_CASE("a -- ends the global options: the next argument is the command", "[runtime]") {
  auto line = parsed_runtime_line({"--root", "/r", "--", "create", "--", "c1"});
  CHECK(line.command == "create");
  CHECK(line.container_id == "c1");
  CHECK(line.runtime_args == Args{"--root", "/r", "--", "create", "--", "c1"});
}

TEST_CASE("only create and run create a container", "[runtime]") {
  CHECK(creates_container("create"));
  CHECK(creates_container("run"));
  CHECK_FALSE(creates_container("start"));
  CHECK_FALSE(creates_container("delete"));
  CHECK_FALSE(creates_container(""));
}
