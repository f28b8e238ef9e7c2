// SPDX-License-Identifier: Apache-2.0
// The docs say what graft does: the messages docs/rules.md quotes are the
// ones graft prints, and every policy.data key the shipped rules read is in
// docs/policy.md's [data] table.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "run_command.hpp"
#include "site_policy.hpp"
#include "temp_dir.hpp"

using namespace graft;
using namespace graft::testing;

namespace {

std::string docs_text_of(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("docs/rules.md quotes the message graft prints for a rule file it cannot read", "[docs][rules]") {
  fixture::TempDir dir("graft-docs-rules-");
  std::string policy = dir.path() + "/graft.toml";
  std::string missing = dir.path() + "/rules/tenants.lua";
  std::ofstream(policy) << "include = [\"" << fixture::source_policy_dir() << "/nvidia/nvidia.toml\"]\nrules = [\""
                        << missing << "\"]\n";
  auto result = run_graft({"--policy", policy, "plan", "--env", "NVIDIA_VISIBLE_DEVICES=none"});
  CHECK(result.exit_code != 0);
  CHECK_THAT(result.err, Catch::Contains("rule file: " + missing + ": cannot read: No such file or directory"));
  std::string rules_md = docs_text_of(std::string(GRAFT_SOURCE_DIR) + "/docs/rules.md");
  CHECK_THAT(rules_md, Catch::Contains("`rule file: <file>: cannot read: <reason>`"));
  CHECK_THAT(rules_md, Catch::Contains("`rule file: /etc/graft/rules/tenants.lua: cannot read: No such file or "
                                       "directory`"));
}

TEST_CASE("every policy.data key the shipped vendor rules read is documented in docs/policy.md",
          "[docs][policy]") {
  std::string policy_md = docs_text_of(std::string(GRAFT_SOURCE_DIR) + "/docs/policy.md");
  std::string data_section = policy_md.substr(policy_md.find("## `[data]`"));
  std::set<std::string> keys;
  std::regex read("policy\\.data\\.([a-z_]+)");
  for (const auto& entry : std::filesystem::directory_iterator(fixture::source_policy_dir() + "/nvidia")) {
    if (entry.path().extension() != ".lua") continue;
    std::string text = docs_text_of(entry.path().string());
    for (auto it = std::sregex_iterator(text.begin(), text.end(), read); it != std::sregex_iterator(); ++it)
      keys.insert((*it)[1].str());
  }
  CHECK(keys.contains("disable_require"));
  for (const auto& key : keys) {
    INFO(key);
    CHECK_THAT(data_section, Catch::Contains("| `" + key));
  }
}
