// SPDX-License-Identifier: Apache-2.0
// What graft is doing right now, kept preformatted for the signal handlers
// that must say so without allocating: a plugin that crashes
// (plugin_crash_handlers.hpp) and a command that overruns its deadline
// (deadline.hpp). Notes nest like the calls they describe: "container c9",
// and inside it "plugin /x/libcgroup.so: cgroup_allow c 195:1: apply", read
// together as "container c9: plugin /x/libcgroup.so: cgroup_allow c 195:1: apply".
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

namespace graft {

struct Action;

class RunningNote {
 public:
  // Whom a fatal signal is blamed on while this note is current. Only a
  // plugin is named: a crash in graft's own code is a bug, not a plugin's fault.
  enum class Blame { graft, plugin };

  // Becomes the current note until it goes; it must go before the note it
  // nests in (a scope object, never stored).
  explicit RunningNote(std::string_view what, Blame blame = Blame::graft);
  // The note of the pieces read together, made in one buffer.
  RunningNote(std::initializer_list<std::string_view> pieces, Blame blame);
  ~RunningNote();
  RunningNote(const RunningNote&) = delete;
  RunningNote& operator=(const RunningNote&) = delete;

  // The innermost note, or null. Safe in a signal handler.
  static const RunningNote* current();

  // Writes "graft: <current note><ending>\n" to stderr with writev(2), and
  // nothing else: safe in a signal handler. Without a note it says "command".
  static void write_current_line(std::string_view ending);

  const std::string& text() const { return text_; }  // one line: control characters escaped
  // text_ as the inside of a JSON string: text_ itself when nothing in it needs escaping.
  const std::string& json() const { return json_.empty() ? text_ : json_; }
  bool blames_plugin() const { return blame_ == Blame::plugin; }

 private:
  std::string text_;
  std::string json_;  // empty when text_ needs no escaping inside a JSON string
  Blame blame_;
  const RunningNote* outer_;
};

// One call into a plugin: "plugin PATH: KIND TARGET: PHASE", or
// "plugin PATH: PHASE" without an action (load, init, finish, destroy).
class PluginCallNote : public RunningNote {
 public:
  PluginCallNote(const std::string& plugin_path, const char* phase, const Action* action = nullptr);
};

}  // namespace graft
