// SPDX-License-Identifier: Apache-2.0
// A runtime that writes part of the OCI state and never closes the hook's
// stdin. graft reads the state until EOF, so nothing in the state can end
// the read; graft arms its deadline before it reads the policy or stdin, so [limits]
// deadline_ms bounds the read like everything after it.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "bounded_graft.hpp"
#include "hook_harness.hpp"

using namespace graft;
using namespace graft::harness;

TEST_CASE("a runtime that never closes stdin is cut off at the deadline with one line",
          "[hook][hostile][deadline]") {
  std::string policy = write_policy("stdin-open", "", "[limits]\ndeadline_ms = 1500\n");
  fixture::TempDir dir("graft-stdin-");
  std::string err_path = dir.path() + "/err";
  auto argv = testing::bounded_graft({"--policy", policy, "hook", "prestart"});
  std::vector<char*> args;
  for (auto& arg : argv) args.push_back(arg.data());
  args.push_back(nullptr);
  int fds[2];
  REQUIRE(::pipe2(fds, O_CLOEXEC) == 0);
  pid_t pid = ::fork();
  if (pid == 0) {
    int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(fds[0], STDIN_FILENO);
    ::dup2(err, STDERR_FILENO);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  ::close(fds[0]);
  std::string half = R"({"ociVersion":"1.0.2","id":"c9",)";
  CHECK(::write(fds[1], half.data(), half.size()) == static_cast<ssize_t>(half.size()));
  int status = 0;
  ::waitpid(pid, &status, 0);  // the write end stays open until graft is gone
  ::close(fds[1]);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 1);
  std::stringstream err;
  err << std::ifstream(err_path).rdbuf();
  CHECK(err.str() == "graft: reading the OCI state on stdin did not finish within 1500 ms\n");
}
