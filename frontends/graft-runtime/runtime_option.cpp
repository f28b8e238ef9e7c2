// SPDX-License-Identifier: Apache-2.0
#include "runtime_option.hpp"

#include <algorithm>
#include <optional>
#include <string_view>

#include <fmt/format.h>

namespace graft::runtime {
namespace {

using Kind = ReadArgument::Kind;
using Options = std::span<const RuntimeOption>;

ReadArgument uncertain(std::string why) { return {Kind::uncertain, {}, 1, std::move(why)}; }

const RuntimeOption* by_name(Options options, std::string_view name) {
  auto found = std::find_if(options.begin(), options.end(),
                            [&](const RuntimeOption& option) { return !name.empty() && option.name == name; });
  return found == options.end() ? nullptr : &*found;
}

const RuntimeOption* by_letter(Options options, char letter) {
  auto found = std::find_if(options.begin(), options.end(),
                            [&](const RuntimeOption& option) { return option.letter != 0 && option.letter == letter; });
  return found == options.end() ? nullptr : &*found;
}

// `--name=value` split at its first '='.
std::pair<std::string_view, std::optional<std::string_view>> split_value(std::string_view text) {
  auto eq = text.find('=');
  if (eq == std::string_view::npos) return {text, std::nullopt};
  return {text.substr(0, eq), text.substr(eq + 1)};
}

// An option that takes a value: the one attached, else the next argument,
// whatever it looks like (both parsers take it so).
ReadArgument with_value(const RuntimeOption& option, std::optional<std::string_view> attached,
                        std::span<const std::string> args, std::size_t at, ReadArgument read = {}) {
  read.kind = Kind::options;
  if (attached) {
    read.found.push_back({&option, std::string(*attached)});
    return read;
  }
  if (at + 1 >= args.size()) return uncertain(fmt::format("'{}' needs a value", args[at]));
  read.found.push_back({&option, args[at + 1]});
  read.width = 2;
  return read;
}

ReadArgument flag(const RuntimeOption& option) { return {Kind::options, {{&option, ""}}, 1, ""}; }

// Go's flag package: one or two dashes, a whole name (a letter is a name too).
ReadArgument read_go_flag(const RuntimeGrammar& grammar, Options options, std::span<const std::string> args,
                          std::size_t at) {
  std::string_view arg = args[at];
  auto [name, value] = split_value(arg.substr(arg.starts_with("--") ? 2 : 1));
  if (name.empty() || name.starts_with('-'))
    return uncertain(fmt::format("'{}' is not an option {} reads", arg, grammar.runtime));
  const RuntimeOption* option = by_name(options, name);
  if (option == nullptr && name.size() == 1) option = by_letter(options, name[0]);
  if (option == nullptr) return uncertain(fmt::format("'{}' is not an option {} has", arg, grammar.runtime));
  if (option->takes_value) return with_value(*option, value, args, at);
  // `--help=false` asks for no help: only the plain flag is help for certain.
  if (value && option->role == OptionRole::help)
    return uncertain(fmt::format("'{}' is a help option with a value", arg));
  ReadArgument read = flag(*option);
  if (value) read.found.front().value = std::string(*value);  // a boolean's value: `--systemd-cgroup=false`
  return read;
}

// `--name`, `--name=VALUE`, `--name VALUE`, with the whole name.
ReadArgument read_long(const RuntimeGrammar& grammar, Options options, std::span<const std::string> args,
                       std::size_t at) {
  std::string_view arg = args[at];
  auto [name, value] = split_value(arg.substr(2));
  const RuntimeOption* option = by_name(options, name);
  if (option == nullptr)
    return uncertain(fmt::format("'{}' is not an option {} has as written (an abbreviation is not read)", arg,
                                 grammar.runtime));
  if (option->takes_value) return with_value(*option, value, args, at);
  if (value) return uncertain(fmt::format("'{}': --{} takes no value", arg, name));
  return flag(*option);
}

// getopt's letters: `-d`, `-db DIR`, `-bDIR` (the value is the rest of the
// argument, `-b=DIR` is "=DIR"), `-dfFILE`.
ReadArgument read_letters(const RuntimeGrammar& grammar, Options options, std::span<const std::string> args,
                          std::size_t at) {
  std::string_view arg = args[at];
  ReadArgument read{Kind::options, {}, 1, ""};
  for (std::size_t k = 1; k < arg.size(); ++k) {
    const RuntimeOption* option = by_letter(options, arg[k]);
    if (option == nullptr)
      return uncertain(fmt::format("'{}': -{} is not an option {} has", arg, arg[k], grammar.runtime));
    if (!option->takes_value) {
      read.found.push_back({option, ""});
      continue;
    }
    std::string_view rest = arg.substr(k + 1);
    return with_value(*option, rest.empty() ? std::nullopt : std::optional(rest), args, at, std::move(read));
  }
  return read;
}

// A runtime graft-runtime does not know: one letter alone, its value next.
ReadArgument read_letter(const RuntimeGrammar& grammar, Options options, std::span<const std::string> args,
                         std::size_t at) {
  std::string_view arg = args[at];
  const RuntimeOption* option = arg.size() == 2 ? by_letter(options, arg[1]) : nullptr;
  if (option == nullptr)
    return uncertain(fmt::format("'{}' is not an option graft-runtime reads for {} (only --name, --name=VALUE, "
                                 "-x)", arg, grammar.runtime));
  return option->takes_value ? with_value(*option, std::nullopt, args, at) : flag(*option);
}

}  // namespace

ReadArgument read_argument(const RuntimeGrammar& grammar, Options options, std::span<const std::string> args,
                           std::size_t at) {
  std::string_view arg = args[at];
  if (arg == "--") return {Kind::end, {}, 1, ""};
  if (arg.size() < 2 || arg[0] != '-') return {Kind::operand, {}, 1, ""};  // "-" too
  switch (grammar.syntax) {
    case OptionSyntax::go_flag:
      return read_go_flag(grammar, options, args, at);
    case OptionSyntax::getopt_long:
      return arg.starts_with("--") ? read_long(grammar, options, args, at) : read_letters(grammar, options, args, at);
    case OptionSyntax::exact:
      return arg.starts_with("--") ? read_long(grammar, options, args, at) : read_letter(grammar, options, args, at);
  }
  return uncertain(std::string(arg));
}

}  // namespace graft::runtime
