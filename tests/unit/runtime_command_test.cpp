// SPDX-License-Identifier: Apache-2.0
// What the real runtime will do with graft-runtime's arguments, read as
// that runtime reads them: runc (Go's flag package through urfave/cli),
// crun (argp's getopt_long), or a runtime graft does not know. Each form
// here was checked against Debian 12's runc 1.1.5 and crun 1.8.1 with
// strace (which config.json they opened); a create graft cannot read with
// certainty is refused rather than guessed (docs/runtimes.md).
#include <catch2/catch.hpp>

#include "runtime_command.hpp"
#include "runtime_grammar.hpp"

using graft::runtime::read_runtime_command;
using graft::runtime::RuntimeCommand;
using graft::runtime::RuntimeGrammar;
using graft::runtime::runtime_grammar;
using Args = std::vector<std::string>;

namespace {

const RuntimeGrammar& runc() { return runtime_grammar("/no/such/dir/runc"); }
const RuntimeGrammar& crun() { return runtime_grammar("/no/such/dir/crun"); }
const RuntimeGrammar& other_runtime() { return runtime_grammar("/no/such/dir/youki"); }

RuntimeCommand read_command(const Args& args, const RuntimeGrammar& grammar) {
  auto command = read_runtime_command(args, grammar);
  INFO((command ? std::string() : command.error().message));
  REQUIRE(command);
  return std::move(command).value();
}

std::string refusal(const Args& args, const RuntimeGrammar& grammar) {
  auto command = read_runtime_command(args, grammar);
  REQUIRE_FALSE(command);
  return command.error().message;
}

}  // namespace

TEST_CASE("the real runtime's grammar is chosen by its file name", "[runtime]") {
  CHECK(runtime_grammar("/usr/sbin/runc").runtime == "runc");
  CHECK(runtime_grammar("/opt/runc.amd64").runtime == "runc");
  CHECK(runtime_grammar("/usr/bin/crun").runtime == "crun");
  CHECK(runtime_grammar("/usr/bin/crun-wasm").runtime == "crun");
  CHECK(runtime_grammar("/usr/bin/runcx").runtime == "the real runtime");
  CHECK(runtime_grammar("/usr/bin/youki").runtime == "the real runtime");
}

TEST_CASE("containerd's create is read alike by every runtime's grammar", "[runtime]") {
  Args args{"--root", "/run/containerd/runc/default", "--log", "/run/c/log.json", "--log-format",
            "json", "create", "--bundle", "/run/c/bundle", "--pid-file", "/run/c/init.pid", "c1"};
  for (const RuntimeGrammar* grammar : {&runc(), &crun(), &other_runtime()}) {
    INFO(grammar->runtime);
    auto command = read_command(args, *grammar);
    CHECK(command.command == "create");
    CHECK(command.creates);
    CHECK(command.bundle == "/run/c/bundle");
    CHECK(command.container_id == "c1");
    CHECK(command.config.empty());
  }
}

TEST_CASE("a runtime's global option's value is never taken for the command", "[runtime]") {
  auto command = read_command({"--root", "create", "-log-format", "text", "--rootless", "false", "state", "c1"},
                              runc());
  CHECK(command.command == "state");
  CHECK_FALSE(command.creates);
  CHECK(read_command({"--cgroup-manager", "run", "--log-level=debug", "delete", "c1"}, crun()).command ==
        "delete");
}

TEST_CASE("graft-runtime reads runc's -b=DIR, -bundle DIR and --b DIR as the bundle", "[runtime]") {
  CHECK(read_command({"create", "-b=/b1", "c1"}, runc()).bundle == "/b1");
  CHECK(read_command({"create", "-bundle", "/b2", "c1"}, runc()).bundle == "/b2");
  CHECK(read_command({"create", "--b", "/b3", "c1"}, runc()).bundle == "/b3");
  CHECK(read_command({"run", "-d", "--keep", "--bundle=/b4", "--no-subreaper=true", "c1"}, runc()).bundle == "/b4");
}

TEST_CASE("graft-runtime reads crun's attached or grouped short options as getopt does", "[runtime]") {
  CHECK(read_command({"create", "-b/b1", "c1"}, crun()).bundle == "/b1");
  CHECK(read_command({"create", "-b=/b2", "c1"}, crun()).bundle == "=/b2");  // crun: realpath `=/b2`
  auto grouped = read_command({"run", "-db", "/b3", "c1"}, crun());
  CHECK(grouped.bundle == "/b3");
  CHECK(grouped.container_id == "c1");
  auto attached = read_command({"run", "-dfspec.json", "-b", "/b4", "c1"}, crun());
  CHECK(attached.config == "spec.json");
  CHECK(attached.bundle == "/b4");
}

TEST_CASE("graft-runtime reads crun's -f and --config as the spec file", "[runtime]") {
  CHECK(read_command({"create", "-f", "/s.json", "c1"}, crun()).config == "/s.json");
  CHECK(read_command({"run", "--config=s.json", "c1"}, crun()).config == "s.json");
  CHECK(read_command({"create", "--config", "config.json", "-b", "/b", "c1"}, crun()).config == "config.json");
}

TEST_CASE("runc has no --config: graft-runtime refuses a create with one", "[runtime]") {
  CHECK(refusal({"create", "-f", "/s.json", "-b", "/b", "c1"}, runc()) ==
        "create: '-f' is not an option runc has; refused, so that no container runs a spec graft-runtime did "
        "not read");
}

TEST_CASE("graft-runtime refuses crun's abbreviated long options on a create", "[runtime]") {
  CHECK(refusal({"create", "--bund=/b", "c1"}, crun()) ==
        "create: '--bund=/b' is not an option crun has as written (an abbreviation is not read); refused, so "
        "that no container runs a spec graft-runtime did not read");
  CHECK_THAT(refusal({"create", "--conf", "/s.json", "c1"}, crun()), Catch::Contains("'--conf'"));
}

TEST_CASE("graft-runtime refuses the forms runc itself rejects", "[runtime]") {
  CHECK_THAT(refusal({"create", "-b/b", "c1"}, runc()), Catch::Contains("'-b/b' is not an option runc has"));
  CHECK_THAT(refusal({"create", "--bund=/b", "c1"}, runc()), Catch::Contains("'--bund=/b'"));
  CHECK_THAT(refusal({"create", "---bundle", "/b", "c1"}, runc()), Catch::Contains("'---bundle'"));
}

TEST_CASE("runc 1.2's --pidfd-socket takes a value, which is not the container id", "[runtime]") {
  auto command = read_command({"create", "--pidfd-socket", "/run/p.sock", "--bundle", "/b", "c1"}, runc());
  CHECK(command.container_id == "c1");
  CHECK(command.bundle == "/b");
  CHECK(read_command({"run", "--pidfd-socket=/p", "-b", "/b", "c2"}, runc()).container_id == "c2");
}

TEST_CASE("graft-runtime reads restore as a create from its bundle", "[runtime]") {
  auto command = read_command({"restore", "--image-path", "/ckpt", "-b", "/b", "--detach", "c1"}, runc());
  CHECK(command.creates);
  CHECK(command.bundle == "/b");
  CHECK(command.container_id == "c1");
  CHECK(read_command({"restore", "--lsm-profile", "apparmor:x", "c1"}, crun()).bundle.empty());
}

TEST_CASE("graft-runtime refuses an option after a create's container id: runc would move it before",
          "[runtime]") {
  CHECK(refusal({"create", "c1", "--bundle", "/b"}, runc()) ==
        "create: '--bundle' after the container id c1: runc may read it as an option (give every option "
        "before the id); refused, so that no container runs a spec graft-runtime did not read");
  CHECK_THAT(refusal({"run", "c1", "extra"}, crun()), Catch::Contains("'extra' after the container id c1"));
}

TEST_CASE("graft-runtime refuses a create without a container id", "[runtime]") {
  CHECK(refusal({"create", "--bundle", "/b"}, runc()) == "create: no container id");
  CHECK(refusal({"run", "--", ""}, crun()) == "run: no container id");
}

TEST_CASE("a -- ends a runtime's options: the id after it may look like one", "[runtime]") {
  auto command = read_command({"--root", "/r", "--", "create", "-b", "/b", "--", "-c1"}, crun());
  CHECK(command.command == "create");
  CHECK(command.bundle == "/b");
  CHECK(command.container_id == "-c1");
}

TEST_CASE("a help option makes a create print the runtime's help: it passes on unread", "[runtime]") {
  for (const auto& [args, grammar] : std::vector<std::pair<Args, const RuntimeGrammar*>>{
           {{"create", "--help"}, &runc()}, {{"run", "-h", "c1"}, &runc()},
           {{"create", "-?"}, &crun()},     {{"create", "-b", "/b", "--usage"}, &crun()}}) {
    auto command = read_command(args, *grammar);
    CHECK(command.command == args[0]);
    CHECK_FALSE(command.creates);
  }
  CHECK_THAT(refusal({"create", "--help=false", "c1"}, runc()), Catch::Contains("help option with a value"));
}

TEST_CASE("graft-runtime refuses a global option crun reads as an abbreviation before a create",
          "[runtime]") {
  // crun takes --ro for --root (root and rootless share their key): the command is create.
  CHECK(refusal({"--ro", "/r", "create", "-b", "/b", "c1"}, crun()) ==
        "'--ro' is not an option crun has as written (an abbreviation is not read) before the command, which "
        "may be 'create'; refused, so that no container runs a spec graft-runtime did not read");
}

TEST_CASE("an unknown global option before any other command passes to the runtime untouched", "[runtime]") {
  auto command = read_command({"--newer-flag", "state", "c1"}, crun());
  CHECK_FALSE(command.creates);
  CHECK(command.command == "state");
  CHECK_FALSE(read_command({"--ro", "/r", "kill", "c1", "KILL"}, crun()).creates);
  CHECK_FALSE(read_command({"--weird", "exec", "c1", "create"}, runc()).creates);
}

TEST_CASE("graft-runtime refuses an unknown global option with an attached value before a create",
          "[runtime]") {
  CHECK_THAT(refusal({"--newer=1", "create", "c1"}, runc()), Catch::Contains("may be 'create'"));
}

TEST_CASE("other commands pass to the runtime with their options unread", "[runtime]") {
  auto command = read_command({"exec", "--bund", "c1", "sh", "-bX"}, crun());
  CHECK(command.command == "exec");
  CHECK_FALSE(command.creates);
  CHECK(read_command({"--version"}, runc()).command.empty());
  CHECK(read_command({}, runc()).command.empty());
}

TEST_CASE("a runtime graft does not know is read in the forms every parser shares", "[runtime]") {
  auto command = read_command({"--root=/r", "create", "-b", "/b", "--pid-file=/p", "--no-pivot", "c1"},
                              other_runtime());
  CHECK(command.bundle == "/b");
  CHECK(command.container_id == "c1");
  CHECK_THAT(refusal({"create", "-bundle", "/b", "c1"}, other_runtime()),
             Catch::Contains("'-bundle' is not an option graft-runtime reads for the real runtime"));
  CHECK_THAT(refusal({"create", "-b/b", "c1"}, other_runtime()), Catch::Contains("'-b/b'"));
  CHECK_THAT(refusal({"-root", "/r", "create", "c1"}, other_runtime()), Catch::Contains("may be 'create'"));
}
