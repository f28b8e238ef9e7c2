// SPDX-License-Identifier: Apache-2.0
#include "watchdog/plugin_crash_handlers.hpp"

#include <string_view>

#include "watchdog/running_note.hpp"

namespace graft {
namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
constexpr std::string_view kEndings[] = {" crashed with SIGSEGV", " crashed with SIGBUS",
                                         " crashed with SIGILL", " crashed with SIGFPE",
                                         " crashed with SIGABRT"};
constexpr std::size_t kCount = sizeof kSignals / sizeof kSignals[0];

// Single-threaded by contract (plugin.h), like everything that calls plugins.
int g_installed = 0;
struct sigaction g_previous[kCount];
stack_t g_old_stack{};
bool g_stack_set = false;
alignas(16) char g_stack[64 * 1024];
volatile std::sig_atomic_t g_reported = 0;  // a second fault while writing does not repeat it

extern "C" void on_fatal_signal(int signal) {
  std::size_t slot = 0;
  while (slot < kCount && kSignals[slot] != signal) ++slot;
  if (slot == kCount) return;
  const RunningNote* note = RunningNote::current();
  if (note != nullptr && note->blames_plugin() && !g_reported) {
    g_reported = 1;
    RunningNote::write_current_line(kEndings[slot]);
  }
  // Back to what was there before us (the default, or a test framework's
  // handler) and send the signal again: it is blocked while we run and is
  // delivered as we return; a fault would also recur at the same instruction.
  ::sigaction(signal, &g_previous[slot], nullptr);
  ::raise(signal);
}

void install() {
  stack_t stack{};
  stack.ss_sp = g_stack;
  stack.ss_size = sizeof g_stack;
  g_stack_set = ::sigaltstack(&stack, &g_old_stack) == 0;
  struct sigaction action {};
  action.sa_handler = on_fatal_signal;
  action.sa_flags = SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  sigaddset(&action.sa_mask, SIGALRM);  // a deadline passing now does not hide the crash
  for (std::size_t i = 0; i < kCount; ++i) ::sigaction(kSignals[i], &action, &g_previous[i]);
  g_reported = 0;
}

void restore() {
  for (std::size_t i = 0; i < kCount; ++i) ::sigaction(kSignals[i], &g_previous[i], nullptr);
  if (g_stack_set) ::sigaltstack(&g_old_stack, nullptr);
}

}  // namespace

PluginCrashHandlers::PluginCrashHandlers() {
  if (g_installed++ == 0) install();
}

PluginCrashHandlers::~PluginCrashHandlers() {
  if (--g_installed == 0) restore();
}

}  // namespace graft
