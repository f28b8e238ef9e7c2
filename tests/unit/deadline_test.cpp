// SPDX-License-Identifier: Apache-2.0
// The deadline and the running note at the C++ level: what the SIGALRM
// handler writes (one stderr line, one audit record) before it exits 1, and
// that a Deadline and the plugin crash handlers leave the process's signal
// handling as they found it. A deadline that passes ends its process, so
// those cases run in a forked child. hung_plugin_test.cpp and
// hung_rules_test.cpp run the real graft binary.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "audit/late_error_record.hpp"
#include "graft/engine/deadline.hpp"
#include "watchdog/plugin_crash_handlers.hpp"
#include "watchdog/running_note.hpp"
#include "fixture_files.hpp"
#include "temp_dir.hpp"

using namespace graft;

namespace {


struct Ended {
  int status = 0;   // as waitpid gives it
  std::string err;  // the child's stderr
  std::string log;  // what it appended to the log fd it was given
};

// Runs `body(log_fd)` in a child whose stderr goes to a file; the child
// _exit(0)s should `body` return.
template <typename Body>
Ended in_child(Body body) {
  fixture::TempDir dir("graft-deadline-");
  std::string err_path = dir.path() + "/err", log_path = dir.path() + "/log";
  pid_t pid = ::fork();
  if (pid == 0) {
    int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (err < 0 || log < 0 || ::dup2(err, STDERR_FILENO) < 0) ::_exit(99);
    body(log);
    ::_exit(0);
  }
  Ended ended;
  ::waitpid(pid, &ended.status, 0);
  ended.err = fixture::read_file(err_path);
  ended.log = fixture::read_file(log_path);
  return ended;
}

[[noreturn]] void wait_forever() {
  for (;;) ::pause();
}

bool exited_with(int status, int code) { return WIFEXITED(status) && WEXITSTATUS(status) == code; }

itimerval current_timer() {
  itimerval timer{};
  ::getitimer(ITIMER_REAL, &timer);
  return timer;
}

}  // namespace

TEST_CASE("A deadline that passes writes one line naming what was running and exits 1", "[deadline]") {
  auto ended = in_child([](int) {
    Deadline deadline(50);
    RunningNote container("container c9");
    PluginCallNote init("/plugins/libcgroup.so", "init");
    wait_forever();
  });
  INFO(ended.err);
  CHECK(exited_with(ended.status, 1));
  CHECK(ended.err == "graft: container c9: plugin /plugins/libcgroup.so: init did not finish within 50 ms\n");
  CHECK(ended.log.empty());
}

TEST_CASE("A deadline names the innermost note still running, not one that has ended", "[deadline]") {
  auto ended = in_child([](int) {
    Deadline deadline(50);
    RunningNote container("container c9");
    { RunningNote inventory("inventory"); }
    RunningNote rules("rules");
    wait_forever();
  });
  CHECK(exited_with(ended.status, 1));
  CHECK(ended.err == "graft: container c9: rules did not finish within 50 ms\n");
}

TEST_CASE("A deadline that passes appends the prepared error record to the audit log in one line",
          "[deadline]") {
  auto ended = in_child([](int log) {
    Request request;
    request.container_id = "c9";
    request.bundle = "/bundles/c9";
    std::vector<std::string> env_patterns;
    Deadline deadline(50);
    deadline.also_record(log, late_error_record({request, nullptr, ContainerOutcome::applied, "", env_patterns}));
    RunningNote container("container c9");
    RunningNote rules("rules");
    wait_forever();
  });
  REQUIRE(exited_with(ended.status, 1));
  REQUIRE(std::count(ended.log.begin(), ended.log.end(), '\n') == 1);
  auto record = nlohmann::json::parse(ended.log);
  CHECK(record["outcome"] == "error");
  CHECK(record["error"] == "container c9: rules did not finish within 50 ms");
  CHECK(record["id"] == "c9");
  CHECK(record["request"]["bundle"] == "/bundles/c9");
  CHECK(record["time"].get<double>() > 1.5e9);
}

TEST_CASE("A deadline's line and record stay one line when the container id holds a newline", "[deadline]") {
  auto ended = in_child([](int log) {
    Request request;
    request.container_id = "c9\nforged: line";
    std::vector<std::string> env_patterns;
    Deadline deadline(50);
    deadline.also_record(log, late_error_record({request, nullptr, ContainerOutcome::error, "", env_patterns}));
    RunningNote container("container " + request.container_id + " \"quoted\"");
    wait_forever();
  });
  REQUIRE(exited_with(ended.status, 1));
  CHECK(ended.err == "graft: container c9\\nforged: line \"quoted\" did not finish within 50 ms\n");
  REQUIRE(std::count(ended.log.begin(), ended.log.end(), '\n') == 1);
  CHECK(nlohmann::json::parse(ended.log)["error"] ==
        "container c9\\nforged: line \"quoted\" did not finish within 50 ms");
}

TEST_CASE("A disarmed deadline stops its timer", "[deadline]") {
  Deadline deadline(60'000);
  CHECK(current_timer().it_value.tv_sec > 0);
  deadline.disarm();
  CHECK(current_timer().it_value.tv_sec == 0);
  CHECK(current_timer().it_value.tv_usec == 0);
}

TEST_CASE("A deadline gives SIGALRM and the timer back as it found them", "[deadline]") {
  struct sigaction before {}, during {}, after {};
  ::sigaction(SIGALRM, nullptr, &before);
  {
    Deadline deadline(60'000);
    ::sigaction(SIGALRM, nullptr, &during);
    CHECK(during.sa_handler != before.sa_handler);
  }
  ::sigaction(SIGALRM, nullptr, &after);
  CHECK(after.sa_handler == before.sa_handler);
  CHECK(current_timer().it_value.tv_sec == 0);
}

TEST_CASE("A deadline fires even when SIGALRM came in blocked", "[deadline]") {
  auto ended = in_child([](int) {
    sigset_t alarm;
    sigemptyset(&alarm);
    sigaddset(&alarm, SIGALRM);
    ::sigprocmask(SIG_BLOCK, &alarm, nullptr);  // as a runtime could hand it down through exec
    Deadline deadline(50);
    RunningNote note("reading the OCI state on stdin");
    wait_forever();
  });
  CHECK(exited_with(ended.status, 1));
  CHECK(ended.err == "graft: reading the OCI state on stdin did not finish within 50 ms\n");
}

TEST_CASE("Running notes nest and unwind in scope order", "[deadline]") {
  REQUIRE(RunningNote::current() == nullptr);
  {
    RunningNote container("container c9");
    {
      PluginCallNote call("/p/libx.so", "destroy");
      CHECK(RunningNote::current()->text() == "container c9: plugin /p/libx.so: destroy");
      CHECK(RunningNote::current()->blames_plugin());
    }
    CHECK(RunningNote::current() == &container);
    CHECK_FALSE(container.blames_plugin());
  }
  CHECK(RunningNote::current() == nullptr);
}

TEST_CASE("A note's JSON form is its text, escaped where JSON needs it", "[deadline]") {
  RunningNote plain("container c9: plugin /p/libx.so: bind /usr/lib/libcuda.so.1: apply");
  CHECK(plain.json() == plain.text());
  RunningNote quoted(R"(file "a\b" é)");
  CHECK(quoted.json() == R"(container c9: plugin /p/libx.so: bind /usr/lib/libcuda.so.1: apply: file \"a\\b\" é)");
  CHECK(nlohmann::json::parse("\"" + quoted.json() + "\"") == quoted.text());
}

TEST_CASE("A plain note inside one that JSON must escape is escaped whole", "[deadline]") {
  RunningNote outer(R"(container "q\1")");
  RunningNote inner("plugin /p/libx.so: apply");
  CHECK(inner.text() == R"(container "q\1": plugin /p/libx.so: apply)");
  CHECK(inner.json() == R"(container \"q\\1\": plugin /p/libx.so: apply)");
  CHECK(nlohmann::json::parse("\"" + inner.json() + "\"") == inner.text());
}

TEST_CASE("A crash in graft's own code under a note is not blamed on a plugin", "[deadline]") {
  auto ended = in_child([](int) {
    ::signal(SIGSEGV, SIG_DFL);  // whatever a sanitizer put there: the plain death
    PluginCrashHandlers handlers;
    RunningNote rules("container c9: rules");
    ::raise(SIGSEGV);
  });
  CHECK(WIFSIGNALED(ended.status));
  CHECK(WTERMSIG(ended.status) == SIGSEGV);
  CHECK(ended.err.empty());
}

TEST_CASE("Plugin crash handlers nest: only the outermost restores the previous ones", "[deadline]") {
  struct sigaction before {}, inner_gone {}, after {};
  ::sigaction(SIGSEGV, nullptr, &before);
  {
    PluginCrashHandlers outer;
    { PluginCrashHandlers inner; }
    ::sigaction(SIGSEGV, nullptr, &inner_gone);
    CHECK(inner_gone.sa_handler != before.sa_handler);
    CHECK((inner_gone.sa_flags & SA_ONSTACK) != 0);
  }
  ::sigaction(SIGSEGV, nullptr, &after);
  CHECK(after.sa_handler == before.sa_handler);
}
