// SPDX-License-Identifier: Apache-2.0
#include "runtime_command.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "runtime_option.hpp"

namespace graft::runtime {
namespace {

using Kind = ReadArgument::Kind;
using Args = std::span<const std::string>;

constexpr std::string_view kNotRead = "refused, so that no container runs a spec graft-runtime did not read";

// Where the command may be. One place when every option before it was
// read with certainty; more when an argument graft-runtime cannot read
// might take the next one as its value (each parser takes at most one).
// args.size() stands for "no command".
struct CommandPlaces {
  std::vector<std::size_t> at;  // the first: every doubtful argument read as a flag
  std::string doubt;            // why the first doubtful argument is one; "" when none
};

// From `at`, the global options read up to the command: its place, or
// nothing when this reading joins one already followed. The other reading
// of each doubtful argument goes on `starts`.
std::optional<std::size_t> follow(Args args, const RuntimeGrammar& grammar, std::size_t at,
                                  std::vector<bool>& seen, std::vector<std::size_t>& starts, std::string& doubt) {
  while (at < args.size()) {
    if (seen[at]) return std::nullopt;
    seen[at] = true;
    ReadArgument read = read_argument(grammar, grammar.global, args, at);
    if (read.kind == Kind::operand) return at;
    if (read.kind == Kind::end) return at + 1;  // the command, whatever it looks like
    if (read.kind == Kind::options) {
      at += read.width;
      continue;
    }
    if (doubt.empty()) doubt = read.why;
    if (args[at].find('=') == std::string::npos && at + 2 <= args.size()) starts.push_back(at + 2);
    at += 1;
  }
  return at;
}

CommandPlaces command_places(Args args, const RuntimeGrammar& grammar) {
  CommandPlaces places;
  std::vector<bool> seen(args.size() + 1, false);
  std::vector<std::size_t> starts{0};
  while (!starts.empty()) {
    std::size_t start = starts.back();
    starts.pop_back();
    auto place = follow(args, grammar, start, seen, starts, places.doubt);
    if (place && std::find(places.at.begin(), places.at.end(), *place) == places.at.end())
      places.at.push_back(*place);
  }
  return places;
}

// A create-like command's options, from `at` up to its first operand (left
// at `at`): the bundle and the config recorded, `creates` cleared by a help
// option, and an option that cannot be read an error.
Status read_command_options(Args args, std::size_t& at, const RuntimeGrammar& grammar, RuntimeCommand& line) {
  auto options = creating_command_options(grammar, line.command);
  while (at < args.size()) {
    ReadArgument read = read_argument(grammar, options, args, at);
    if (read.kind == Kind::uncertain) return make_error("{}: {}; {}", line.command, read.why, kNotRead);
    if (read.kind == Kind::operand) break;
    if (read.kind == Kind::end) {
      at += 1;
      break;
    }
    for (const auto& found : read.found) {
      if (found.option->role == OptionRole::help) line.creates = false;  // the runtime prints its help
      if (found.option->role == OptionRole::bundle) line.bundle = found.value;
      if (found.option->role == OptionRole::config) line.config = found.value;
    }
    if (!line.creates) break;
    at += read.width;
  }
  return ok_status();
}

// A command that creates a container: its options, then exactly one operand.
Result<RuntimeCommand> read_creating(Args args, std::size_t at, const RuntimeGrammar& grammar,
                                     RuntimeCommand line) {
  line.creates = true;
  if (auto status = read_command_options(args, at, grammar, line); !status) return status.error();
  if (!line.creates) return RuntimeCommand{line.command};
  if (at >= args.size() || args[at].empty()) return make_error("{}: no container id", line.command);
  line.container_id = args[at];
  if (at + 1 < args.size())
    return make_error("{}: '{}' after the container id {}: {} may read it as an option (give every option "
                      "before the id); {}", line.command, args[at + 1], line.container_id, grammar.runtime, kNotRead);
  return line;
}

}  // namespace

Result<RuntimeCommand> read_runtime_command(Args args, const RuntimeGrammar& grammar) {
  CommandPlaces places = command_places(args, grammar);
  RuntimeCommand line;
  std::size_t at = places.at.front();
  if (at < args.size()) line.command = args[at];
  if (!places.doubt.empty()) {
    for (std::size_t place : places.at) {
      if (place < args.size() && creates_container(args[place]))
        return make_error("{} before the command, which may be '{}'; {}", places.doubt, args[place], kNotRead);
    }
    return line;  // not a create, whichever way the runtime reads it: its own business
  }
  if (!creates_container(line.command)) return line;
  return read_creating(args, at + 1, grammar, std::move(line));
}

}  // namespace graft::runtime
