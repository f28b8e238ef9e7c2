// SPDX-License-Identifier: Apache-2.0
// Reading the raw words of graft's command line (command_words.hpp).
#include "command_words.hpp"

#include <algorithm>
#include <cstddef>
#include <iterator>

namespace graft::cli {

bool takes_global_value(std::string_view arg) {
  static constexpr std::string_view takes_value[] = {"--policy", "--policy-dir", "--node-allow", "--log-level"};
  return std::find(std::begin(takes_value), std::end(takes_value), arg) != std::end(takes_value);
}

std::string_view command_word(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (!arg.starts_with("-")) return arg;
    if (takes_global_value(arg)) ++i;
  }
  return {};
}

CommandWords::CommandWords(int argc, char** argv) : words_(argv, argv + argc) {
  constexpr std::string_view alias = "import-";
  int seen = 0;  // words that are not options: the command, then its subcommand
  for (std::size_t i = 1; i < words_.size() && seen < 2; ++i) {
    if (words_[i].starts_with("-")) {
      if (takes_global_value(words_[i])) ++i;
      continue;
    }
    if (++seen == 1 && words_[i] != "policy") break;
    if (seen == 2 && words_[i].starts_with(alias) && words_[i].size() > alias.size()) {
      std::string name = words_[i].substr(alias.size());
      words_[i] = "import";
      words_.insert(words_.begin() + static_cast<std::ptrdiff_t>(i) + 1, name);
    }
  }
  for (auto& word : words_) pointers_.push_back(word.data());
  pointers_.push_back(nullptr);
}

}  // namespace graft::cli
