// SPDX-License-Identifier: Apache-2.0
// The command line as words, before CLI11 parses it: which words are global
// options' values, which word is the command, and the one spelling CLI11
// cannot declare (`policy import-NAME`, whose NAME comes from a policy).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace graft::cli {

// --policy, --policy-dir and --log-level: the next word is their value.
bool takes_global_value(std::string_view arg);

// The first word that is not an option or a global option's value: the
// command, when one is given.
std::string_view command_word(int argc, char** argv);

// argv with `policy import-NAME` spelt `policy import NAME`: a vendor's
// importer keeps the name its users know (docs/migrating.md) though core
// knows no vendor. Owns the words; argv() stays valid while it lives.
class CommandWords {
 public:
  CommandWords(int argc, char** argv);
  CommandWords(const CommandWords&) = delete;
  CommandWords& operator=(const CommandWords&) = delete;
  int argc() const { return static_cast<int>(words_.size()); }
  char** argv() { return pointers_.data(); }

 private:
  std::vector<std::string> words_;
  std::vector<char*> pointers_;
};

}  // namespace graft::cli
