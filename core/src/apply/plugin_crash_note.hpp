// A plugin is native code running as root inside graft's process: if it
// crashes, nothing graft could print afterwards gets printed. While one
// plugin call runs, a fatal signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT)
// first writes one line to stderr with write(2), naming the container, the
// plugin file, the phase and the action, then lets the signal take its
// previous course: the process still dies by that signal (and dumps core
// where the system says so), and the runtime sees a hook killed by a signal
// and refuses to start the container.
#pragma once

#include <csignal>
#include <string>

namespace graft {

struct Action;

// Installs the handlers for as long as it lives (on an alternate stack, so a
// plugin that overflows its stack is still named) and restores the previous
// ones, so a process that applies plans (the unit tests) keeps its own.
class PluginCrashHandlers {
 public:
  PluginCrashHandlers();
  ~PluginCrashHandlers();
  PluginCrashHandlers(const PluginCrashHandlers&) = delete;
  PluginCrashHandlers& operator=(const PluginCrashHandlers&) = delete;

 private:
  stack_t old_stack_{};
  bool stack_set_ = false;
};

// Names one plugin call for the line above while it lives; `action` may be
// null (finish). Outside such a scope a fatal signal is not blamed on a plugin.
class PluginCallNote {
 public:
  PluginCallNote(const std::string& container_id, const std::string& plugin_path,
                 const char* phase, const Action* action);
  ~PluginCallNote();
  PluginCallNote(const PluginCallNote&) = delete;
  PluginCallNote& operator=(const PluginCallNote&) = delete;
};

}  // namespace graft
