// SPDX-License-Identifier: Apache-2.0
#include "graft/engine/completion_script.hpp"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

namespace graft {
namespace {

// A command with its path of names ("graft policy check").
struct CommandAt {
  std::string path;
  const CompletionCommand* command;
};

// Names and values go into the script unquoted in word lists and case
// patterns: anything but plain characters is left out rather than escaped.
bool plain_word(std::string_view word) {
  return !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("-_.+,/@%").find(c) != std::string_view::npos;
  });
}

// Every command with a plain name, under parents with plain names.
void collect_commands(const CompletionCommand& command, const std::string& path, std::vector<CommandAt>& out) {
  out.push_back({path, &command});
  for (const auto& sub : command.subcommands)
    if (plain_word(sub.name)) collect_commands(sub, path + " " + sub.name, out);
}

std::vector<CommandAt> commands_of(const CompletionCommand& root) {
  std::vector<CommandAt> out;
  collect_commands(root, root.name, out);
  return out;
}

void add_plain(std::vector<std::string>& out, const std::string& word) {
  if (plain_word(word) && std::find(out.begin(), out.end(), word) == out.end()) out.push_back(word);
}

std::string joined(const std::vector<std::string>& words, std::string_view separator) {
  std::string out;
  for (const auto& word : words) out += (out.empty() ? "" : std::string(separator)) + word;
  return out;
}

// Option names that take a value, anywhere: the word after one is its
// value, never a command.
std::vector<std::string> valued_names(const std::vector<CommandAt>& commands) {
  std::vector<std::string> out;
  for (const auto& at : commands)
    for (const auto& option : at.command->options)
      if (option.takes_value)
        for (const auto& name : option.names) add_plain(out, name);
  return out;
}

bool names_overlap(const CompletionOption& a, const CompletionOption& b) {
  return std::any_of(a.names.begin(), a.names.end(), [&](const std::string& name) {
    return std::find(b.names.begin(), b.names.end(), name) != b.names.end();
  });
}

// The options in force at `at`: its own, then the root's that it does not
// have itself (global options may follow any command; each has its --help).
std::vector<const CompletionOption*> options_at(const CommandAt& at, const CompletionCommand& root) {
  std::vector<const CompletionOption*> out;
  for (const auto& option : at.command->options) out.push_back(&option);
  if (at.command == &root) return out;
  for (const auto& global : root.options)
    if (std::none_of(at.command->options.begin(), at.command->options.end(),
                     [&](const CompletionOption& own) { return names_overlap(own, global); }))
      out.push_back(&global);
  return out;
}

// One case arm per valued option: "PATH --name" for a command's own option,
// *" --name" for a global one, so the value's completion is the option's.
struct ValueArm {
  std::vector<std::string> patterns;
  std::vector<std::string> choices;  // empty: files, or nothing when !files
  bool files = true;
};

std::vector<ValueArm> value_arms(const std::vector<CommandAt>& commands, const CompletionCommand& root) {
  std::vector<ValueArm> arms;
  for (const auto& at : commands) {
    bool global = at.command == &root;
    for (const auto& option : at.command->options) {
      if (!option.takes_value) continue;
      ValueArm arm;
      for (const auto& name : option.names)
        if (plain_word(name)) arm.patterns.push_back(global ? "*\" " + name + "\"" : "\"" + at.path + " " + name + "\"");
      for (const auto& choice : option.choices) add_plain(arm.choices, choice);
      arm.files = option.files;
      if (!arm.patterns.empty()) arms.push_back(arm);
    }
  }
  // Specific patterns first: a command's --format before any global pattern.
  std::stable_partition(arms.begin(), arms.end(), [](const ValueArm& arm) { return arm.patterns[0][0] == '"'; });
  return arms;
}

std::vector<std::string> subcommand_patterns(const std::vector<CommandAt>& commands) {
  std::vector<std::string> out;
  for (std::size_t i = 1; i < commands.size(); ++i) out.push_back("\"" + commands[i].path + "\"");
  return out;
}

bool wants_files(const CompletionCommand& command) {
  return std::any_of(command.positionals.begin(), command.positionals.end(),
                     [](const CompletionOption& positional) { return positional.choices.empty() && positional.files; });
}

std::vector<std::string> positional_choices(const CompletionCommand& command) {
  std::vector<std::string> out;
  for (const auto& positional : command.positionals)
    for (const auto& choice : positional.choices) add_plain(out, choice);
  return out;
}

// 'text' for zsh, with ' written as '\''.
std::string single_quoted(std::string_view text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c == '\n' ? ' ' : c);
  return out + "'";
}

// "name:description" for _describe, its colons in the name escaped.
std::string described(const std::string& name, const std::string& description) {
  std::string escaped;
  for (char c : name) escaped += c == ':' ? std::string("\\:") : std::string(1, c);
  return single_quoted(escaped + ":" + description);
}

// The loop both shells share: walk the words before the cursor, skipping
// options and their values, descending into each command named.
// `open` is what opens a case pattern: zsh's "(", nothing for bash.
std::string walk_words(const std::vector<CommandAt>& commands, std::string_view word_at, std::string_view first,
                       std::string_view cursor, std::string_view open) {
  std::vector<std::string> valued = valued_names(commands);
  std::string out = fmt::format("  for ((i = {}; i < {}; i++)); do\n    word={}\n    case $word in\n", first,
                                cursor, word_at);
  if (!valued.empty()) out += fmt::format("      {}{}) i=$((i + 1)); continue ;;\n", open, joined(valued, "|"));
  out += fmt::format("      {}-*) continue ;;\n    esac\n", open);
  std::vector<std::string> patterns = subcommand_patterns(commands);
  if (!patterns.empty())
    out += fmt::format("    case \"$node $word\" in\n      {}{}) node=\"$node $word\" ;;\n    esac\n", open,
                       joined(patterns, "|"));
  out += "  done\n";
  return out;
}

// The case on "$node $prev": after an option that takes a value, its
// choices, files, or nothing (a free value). `open` opens a pattern (zsh's "("); `action` completes.
template <typename Action>
std::string value_case(const std::vector<CommandAt>& commands, const CompletionCommand& root, std::string_view open,
                       Action action) {
  std::string out = "  case \"$node $prev\" in\n";
  for (const auto& arm : value_arms(commands, root))
    out += fmt::format("    {}{}) {}; return 0 ;;\n", open, joined(arm.patterns, "|"), action(arm));
  return out + "  esac\n";
}

}  // namespace

std::string bash_completion(const CompletionCommand& root) {
  std::vector<CommandAt> commands = commands_of(root);
  std::string fn = "_" + root.name;
  std::string out = fmt::format(
      "# bash completion for {0}, generated by `{0} completion bash` from the commands\n"
      "# {0} parses. Installed as /usr/share/bash-completion/completions/{0}.\n"
      "{1}() {{\n"
      "  local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}}\n"
      "  local node={0} word i words= flags= files=\n",
      root.name, fn);
  out += walk_words(commands, "${COMP_WORDS[i]}", "1", "COMP_CWORD", "");
  out += value_case(commands, root, "", [](const ValueArm& arm) {
    if (arm.choices.empty() && !arm.files) return std::string("COMPREPLY=()");
    return "COMPREPLY=($(compgen " + (arm.choices.empty() ? "-f" : "-W \"" + joined(arm.choices, " ") + "\"") +
           " -- \"$cur\"))";
  });
  out += "  case $node in\n";
  for (const auto& at : commands) {
    std::vector<std::string> words, flags;
    for (const auto& sub : at.command->subcommands) add_plain(words, sub.name);
    for (const auto& choice : positional_choices(*at.command)) add_plain(words, choice);
    for (const auto* option : options_at(at, root))
      for (const auto& name : option->names) add_plain(flags, name);
    out += fmt::format("    \"{}\") words=\"{}\"; flags=\"{}\"{} ;;\n", at.path, joined(words, " "),
                       joined(flags, " "), wants_files(*at.command) ? "; files=1" : "");
  }
  // Options when the word starts with '-', or when nothing else fits here.
  out += "  esac\n"
         "  [[ $cur == -* || -z $words ]] && words=\"$words $flags\"\n"
         "  COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
         "  [[ -n $files && $cur != -* ]] && COMPREPLY+=($(compgen -f -- \"$cur\"))\n"
         "  return 0\n"
         "}\n";
  out += fmt::format("complete -F {} {}\n", fn, root.name);
  return out;
}

std::string zsh_completion(const CompletionCommand& root) {
  std::vector<CommandAt> commands = commands_of(root);
  std::string fn = "_" + root.name;
  std::string out = fmt::format(
      "#compdef {0}\n"
      "# zsh completion for {0}, generated by `{0} completion zsh` from the commands\n"
      "# {0} parses. Installed as /usr/share/zsh/vendor-completions/_{0}.\n"
      "{1}() {{\n"
      "  local node={0} word i prev=${{words[CURRENT-1]}} files=\n"
      "  local -a graft_commands graft_options graft_values\n",
      root.name, fn);
  out += walk_words(commands, "${words[i]}", "2", "CURRENT", "(");
  out += value_case(commands, root, "(", [](const ValueArm& arm) {
    if (arm.choices.empty()) return std::string(arm.files ? "_files" : ":");
    return "compadd -- " + joined(arm.choices, " ");
  });
  out += "  case $node in\n";
  for (const auto& at : commands) {
    std::vector<std::string> subs, options;
    for (const auto& sub : at.command->subcommands)
      if (plain_word(sub.name)) subs.push_back(described(sub.name, sub.description));
    for (const auto* option : options_at(at, root))
      for (const auto& name : option->names)
        if (plain_word(name)) options.push_back(described(name, option->description));
    out += fmt::format("    (\"{}\") graft_commands=({}); graft_options=({}); graft_values=({}){} ;;\n", at.path,
                       joined(subs, " "), joined(options, " "), joined(positional_choices(*at.command), " "),
                       wants_files(*at.command) ? "; files=1" : "");
  }
  out += "  esac\n"
         "  (( ${#graft_commands} )) && _describe -t commands 'command' graft_commands\n"
         "  (( ${#graft_values} )) && compadd -- $graft_values\n"
         "  [[ -n $files ]] && _files\n"
         "  _describe -t options 'option' graft_options\n"
         "}\n";
  out += fmt::format(
      "if [[ ${{zsh_eval_context[-1]}} == loadautofunc ]]; then\n"
      "  {0} \"$@\"\n"
      "else\n"
      "  (( $+functions[compdef] )) && compdef {0} {1}\n"
      "fi\n",
      fn, root.name);
  return out;
}

}  // namespace graft
