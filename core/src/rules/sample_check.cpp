// check_rules_on_samples: each sample evaluated with rule activity recorded;
// the first run-time error names the sample and the rule's file:line.
#include "rules/sample_check.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "inventory/synthetic_inventory.hpp"
#include "request/request.hpp"

namespace graft {
namespace {

std::vector<SampleRequest> all_samples(const Policy& policy) {
  std::vector<SampleRequest> samples{
      SampleRequest{.name = "built-in: no request", .origin = {}, .env = {}, .annotations = {}, .privileged = false},
      SampleRequest{.name = "built-in: privileged, no request", .origin = {}, .env = {}, .annotations = {},
                    .privileged = true}};
  for (const auto& [_, sample] : policy.samples) samples.push_back(sample);
  return samples;
}

// Each rule's undeclared data reads, merged over the samples.
void note_undeclared_reads(const std::vector<RuleActivity>& activity, std::vector<RuleActivity>& into) {
  for (const RuleActivity& rule : activity) {
    if (rule.undeclared_reads.empty()) continue;
    auto same = [&](const RuleActivity& known) { return known.name == rule.name; };
    auto known = std::find_if(into.begin(), into.end(), same);
    if (known == into.end()) {
      into.push_back(rule);
      continue;
    }
    for (const DataRead& read : rule.undeclared_reads)
      if (std::find(known->undeclared_reads.begin(), known->undeclared_reads.end(), read) ==
          known->undeclared_reads.end())
        known->undeclared_reads.push_back(read);
  }
}

}  // namespace

Inventory sample_inventory(const Policy& policy) {
  return synthetic_inventory(sample_host(), policy);
}

Result<SampleCheck> check_rules_on_samples(const Policy& policy) {
  SampleCheck check;
  Inventory inventory = sample_inventory(policy);
  std::vector<RuleActivity> acted;
  for (const SampleRequest& sample : all_samples(policy)) {
    std::string where = sample.origin.file.empty() ? fmt::format("sample '{}'", sample.name)
                                                   : fmt::format("sample '{}' ({})", sample.name, sample.origin.full());
    auto request = request_from_flags(sample.env, sample.annotations, sample.privileged, "");
    if (!request) return request.error().context(where);
    request->container_id = "sample";
    std::vector<RuleActivity> activity;
    auto intent = evaluate_rules(*request, inventory, policy, &activity);
    if (!intent) return intent.error().context(where);
    ++check.samples;
    if (intent->refusal) ++check.refused;
    else if (intent->inject) ++check.injected;
    else ++check.skipped;
    if (acted.empty()) acted = activity;
    for (std::size_t i = 0; i < activity.size() && i < acted.size(); ++i) acted[i].changed |= activity[i].changed;
    note_undeclared_reads(activity, check.undeclared_data_reads);
  }
  for (const RuleActivity& rule : acted)
    if (!rule.changed) check.idle_rules.push_back(rule);
  return check;
}

}  // namespace graft
