// SPDX-License-Identifier: Apache-2.0
// A plugin is native code running as root inside graft's process: if it
// crashes, nothing graft could print afterwards gets printed. While a
// plugin call runs (load, init, prepare, apply, finish, destroy: a
// PluginCallNote is current), a fatal signal (SIGSEGV, SIGBUS, SIGILL,
// SIGFPE, SIGABRT) first writes one line to stderr with writev(2), naming
// the note (container, plugin file, action, phase), then lets the signal
// take its previous course: the process still dies by that signal (and
// dumps core where the system says so), and the runtime sees a hook killed
// by a signal and refuses to start the container.
#pragma once

#include <csignal>

namespace graft {

// Installs the handlers for as long as it lives (on an alternate stack, so a
// plugin that overflows its stack is still named) and restores the previous
// ones, so a process that loads plugins (the unit tests) keeps its own.
// Nests: only the outermost one installs and restores.
class PluginCrashHandlers {
 public:
  PluginCrashHandlers();
  ~PluginCrashHandlers();
  PluginCrashHandlers(const PluginCrashHandlers&) = delete;
  PluginCrashHandlers& operator=(const PluginCrashHandlers&) = delete;
};

}  // namespace graft
