// SPDX-License-Identifier: Apache-2.0
#include "render/explain_render.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace graft {

std::vector<RuleActivity> in_run_order(std::vector<RuleActivity> activity) {
  std::stable_sort(activity.begin(), activity.end(),
                   [](const RuleActivity& a, const RuleActivity& b) { return a.phase < b.phase; });
  return activity;
}

namespace {

std::string explained_outcome(const RuleActivity& rule) {
  if (!rule.ran) return "not reached: an earlier rule refused the container or failed";
  if (rule.failed) return "failed: the evaluation stopped with its error";
  return rule.changed ? "" : "no change";
}

}  // namespace

std::string render_explain_text(const std::vector<RuleActivity>& activity) {
  std::vector<RuleActivity> ordered = in_run_order(activity);
  std::string out = fmt::format("\nexplain: {} rules, in the order they ran\n", ordered.size());
  for (std::size_t i = 0; i < ordered.size(); ++i) {
    const RuleActivity& rule = ordered[i];
    out += fmt::format("{:>3}. {:<8} {}  {}\n", i + 1, rules::phase_name(rule.phase), rule.name,
                       rule.origin.full());
    for (const auto& read : rule.reads) out += fmt::format("       read    {}\n", read);
    if (rule.reads_left_out > 0)
      out += fmt::format("       read    ... and {} more\n", rule.reads_left_out);
    for (const auto& change : rule.changes) out += fmt::format("       change  {}\n", change);
    if (std::string outcome = explained_outcome(rule); !outcome.empty())
      out += fmt::format("       {}\n", outcome);
  }
  return out;
}

nlohmann::json render_explain_json(const std::vector<RuleActivity>& activity) {
  nlohmann::json out = nlohmann::json::array();
  for (const RuleActivity& rule : in_run_order(activity)) {
    out.push_back({{"rule", rule.name},
                   {"phase", std::string(rules::phase_name(rule.phase))},
                   {"origin", rule.origin.full()},
                   {"ran", rule.ran},
                   {"changed", rule.changed},
                   {"failed", rule.failed},
                   {"reads", rule.reads},
                   {"reads_left_out", rule.reads_left_out},
                   {"changes", rule.changes}});
  }
  return out;
}

}  // namespace graft
