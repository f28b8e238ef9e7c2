// SPDX-License-Identifier: Apache-2.0
#include "run_command.hpp"

#include <algorithm>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "fixture_files.hpp"
#include "temp_dir.hpp"

namespace graft::testing {
namespace {


}  // namespace

// Output goes to files rather than pipes so a chatty child can never block.
CommandResult run_command(const std::vector<std::string>& argv, const std::string& input) {
  fixture::TempDir dir("graft-run-");
  std::string in_path = dir.path() + "/in", out_path = dir.path() + "/out",
              err_path = dir.path() + "/err";
  std::ofstream(in_path) << input;
  // Built before fork: the child of a multi-threaded test (tests/e2e/load_*)
  // must not allocate, so it only opens, dups and execs.
  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = ::fork();
  if (pid == 0) {
    int in = ::open(in_path.c_str(), O_RDONLY);
    int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  CommandResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = fixture::read_file(out_path);
  result.err = fixture::read_file(err_path);
  return result;
}

CommandResult run_graft(const std::vector<std::string>& args) {
  std::vector<std::string> argv{GRAFT_BINARY};
  if (std::find(args.begin(), args.end(), "--node-allow") == args.end())
    argv.insert(argv.end(), {"--node-allow", GRAFT_TEST_NODE_ALLOW});
  argv.insert(argv.end(), args.begin(), args.end());
  return run_command(argv);
}

CommandResult check_json_schema(const std::string& file, const std::string& schema) {
  return run_command({"/usr/bin/python3", "-c",
                      "import json,sys,jsonschema;"
                      "jsonschema.validate(json.load(open(sys.argv[1])),json.load(open(sys.argv[2])))",
                      file, std::string(GRAFT_SOURCE_DIR) + "/docs/" + schema});
}

CommandResult check_plan_schema(const std::string& file) {
  return check_json_schema(file, "plan-schema.json");
}

}  // namespace graft::testing
