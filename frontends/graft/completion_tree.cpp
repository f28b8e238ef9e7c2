// SPDX-License-Identifier: Apache-2.0
// Reading the completion tree out of CLI11 (completion_tree.hpp).
#include "completion_tree.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace graft::cli {
namespace {

// CLI11 shows an IsMember check only in the type name ("TEXT:{text,json}"),
// so the choices are read back from there.
std::vector<std::string> option_choices(const CLI::Option& option) {
  std::string type = option.get_type_name();
  auto open = type.find(":{");
  auto close = type.find('}', open);
  std::vector<std::string> choices;
  if (open == std::string::npos || close == std::string::npos) return choices;
  std::string list = type.substr(open + 2, close - open - 2);
  for (std::size_t start = 0; start <= list.size();) {
    std::size_t comma = std::min(list.find(',', start), list.size());
    if (comma > start) choices.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return choices;
}

// A value CLI11 types as plain TEXT may be a path; one given its own type
// name (KEY=VALUE, TIME) or a number is not.
bool value_names_file(const CLI::Option& option) {
  std::string type = option.get_type_name();
  return type == "TEXT" || type.starts_with("TEXT:") || type == "FILE" || type == "DIR" || type == "PATH";
}

CompletionOption completion_option(const CLI::Option& option) {
  CompletionOption out;
  for (const auto& name : option.get_lnames()) out.names.push_back("--" + name);
  for (const auto& name : option.get_snames()) out.names.push_back("-" + name);
  out.takes_value = option.get_positional() || option.get_items_expected_max() > 0;  // flags expect 0
  out.choices = option_choices(option);
  out.description = option.get_description();
  out.files = out.choices.empty() && value_names_file(option);
  return out;
}

}  // namespace

CompletionCommand completion_tree(const CLI::App& app) {
  CompletionCommand out{app.get_name(), app.get_description(), {}, {}, {}};
  for (const CLI::Option* option : app.get_options()) {
    CompletionOption described = completion_option(*option);
    (option->get_positional() && option->get_lnames().empty() ? out.positionals : out.options)
        .push_back(std::move(described));
  }
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    out.subcommands.push_back(completion_tree(*sub));
  return out;
}

}  // namespace graft::cli
