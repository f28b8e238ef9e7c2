#include "apply/plugin_crash_note.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "plan/plan.hpp"

namespace graft {
namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
constexpr const char* kNames[] = {"SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE", "SIGABRT"};
constexpr std::size_t kCount = sizeof kSignals / sizeof kSignals[0];

// Everything the handler touches is preformatted here; it only reads.
char g_note[1024];
volatile std::sig_atomic_t g_note_length = 0;  // 0: no plugin call running
struct sigaction g_previous[kCount];
alignas(16) char g_stack[64 * 1024];

void write_all(const char* text, std::size_t length) {
  while (length > 0) {
    ssize_t wrote = ::write(STDERR_FILENO, text, length);
    if (wrote <= 0) return;
    text += wrote;
    length -= static_cast<std::size_t>(wrote);
  }
}

extern "C" void on_fatal_signal(int signal) {
  std::size_t slot = 0;
  while (slot < kCount && kSignals[slot] != signal) ++slot;
  if (slot == kCount) return;
  std::size_t length = static_cast<std::size_t>(g_note_length);
  if (length > 0) {
    g_note_length = 0;  // a second fault while writing does not repeat it
    write_all(g_note, length);
    write_all(kNames[slot], std::strlen(kNames[slot]));
    write_all("\n", 1);
  }
  // Back to what was there before us (the default, or a test framework's
  // handler) and send the signal again: it is blocked while we run and is
  // delivered as we return; a fault would also recur at the same instruction.
  ::sigaction(signal, &g_previous[slot], nullptr);
  ::raise(signal);
}

}  // namespace

PluginCrashHandlers::PluginCrashHandlers() {
  stack_t stack{};
  stack.ss_sp = g_stack;
  stack.ss_size = sizeof g_stack;
  stack_set_ = ::sigaltstack(&stack, &old_stack_) == 0;
  struct sigaction action {};
  action.sa_handler = on_fatal_signal;
  action.sa_flags = SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (std::size_t i = 0; i < kCount; ++i) ::sigaction(kSignals[i], &action, &g_previous[i]);
}

PluginCrashHandlers::~PluginCrashHandlers() {
  g_note_length = 0;
  for (std::size_t i = 0; i < kCount; ++i) ::sigaction(kSignals[i], &g_previous[i], nullptr);
  if (stack_set_) ::sigaltstack(&old_stack_, nullptr);
}

PluginCallNote::PluginCallNote(const std::string& container_id, const std::string& plugin_path,
                               const char* phase, const Action* action) {
  std::string what = action ? fmt::format("{} {}: ", to_string(action->kind), action->target) : "";
  // The same shape as graft's other plugin errors; the handler appends the
  // signal's name and the newline.
  std::string note = fmt::format("graft: container {}: plugin {}: {}{} crashed with ", container_id,
                                 plugin_path, what, phase);
  // One line, whatever the container id or a target holds.
  std::replace_if(note.begin(), note.end(), [](char c) { return c == '\n' || c == '\r'; }, '?');
  std::size_t length = std::min(note.size(), sizeof g_note);
  std::memcpy(g_note, note.data(), length);
  g_note_length = static_cast<std::sig_atomic_t>(length);
}

PluginCallNote::~PluginCallNote() { g_note_length = 0; }

}  // namespace graft
