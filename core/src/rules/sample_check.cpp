// SPDX-License-Identifier: Apache-2.0
// check_rules_on_samples: the rules loaded once to find a load error, then
// each sample evaluated on its host with rule activity recorded; an error is
// that sample's outcome, and the other samples still run.
#include "rules/sample_check.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "inventory/synthetic_inventory.hpp"
#include "request/request.hpp"

namespace graft {
namespace {

std::vector<SampleRequest> all_samples(const Policy& policy) {
  std::vector<SampleRequest> samples{
      SampleRequest{.name = "built-in: no request", .origin = {}, .env = {}, .annotations = {}, .privileged = false,
                    .host = {}},
      SampleRequest{.name = "built-in: privileged, no request", .origin = {}, .env = {}, .annotations = {},
                    .privileged = true, .host = {}}};
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

std::string sample_host_text(const SampleHost& host) {
  std::string text = fmt::format("{} GPU{}", host.gpus, host.gpus == 1 ? "" : "s");
  if (host.mig.empty()) return text;
  std::vector<std::string> indices;
  for (unsigned index : host.mig) indices.push_back(std::to_string(index));
  return fmt::format("{}, MIG on {} ({} partitions each)", text, fmt::join(indices, ", "), host.partitions);
}

Inventory inventory_of_sample(const SampleRequest& sample, const Policy& policy) {
  if (!sample.host) return sample_inventory(policy);
  return synthetic_inventory(uniform_host(sample.host->gpus, sample.host->mig, sample.host->partitions), policy);
}

SampleOutcome run_sample(const SampleRequest& sample, const Policy& policy, std::vector<RuleActivity>& activity) {
  SampleOutcome outcome{.name = sample.name, .origin = sample.origin,
                        .host = sample.host ? sample_host_text(*sample.host) : "",
                        .kind = SampleOutcome::Kind::error, .intent = {}, .error = {}};
  auto request = request_from_flags(sample.env, sample.annotations, sample.privileged, "");
  if (!request) {
    outcome.error = request.error().message;
    return outcome;
  }
  request->container_id = "sample";
  Inventory inventory = inventory_of_sample(sample, policy);
  auto intent = evaluate_rules(*request, inventory, policy, &activity);
  if (!intent) {
    outcome.error = intent.error().message;
    return outcome;
  }
  outcome.intent = std::move(*intent);
  outcome.kind = outcome.intent.refusal ? SampleOutcome::Kind::refused
                 : outcome.intent.inject ? SampleOutcome::Kind::injected
                                         : SampleOutcome::Kind::not_gpu;
  return outcome;
}

std::string granted_devices_text(const Intent& intent) {
  std::vector<std::string> devices;
  for (const DeviceGrant& device : intent.devices)
    devices.push_back(device.partition ? fmt::format("{}:{}", device.gpu, *device.partition)
                                       : std::to_string(device.gpu));
  std::vector<std::string> capabilities;
  for (const NamedGrant& capability : intent.capabilities) capabilities.push_back(capability.name);
  std::string text = devices.empty() ? "no GPU" : fmt::format("GPU{} {}", devices.size() == 1 ? "" : "s",
                                                              fmt::join(devices, ", "));
  if (!capabilities.empty()) text += fmt::format(" ({})", fmt::join(capabilities, ", "));
  return text;
}

}  // namespace

std::size_t SampleCheck::count(SampleOutcome::Kind kind) const {
  return static_cast<std::size_t>(
      std::count_if(samples.begin(), samples.end(), [kind](const SampleOutcome& s) { return s.kind == kind; }));
}

std::string sample_label(const SampleOutcome& sample) {
  return sample.origin.file.empty() ? fmt::format("sample '{}'", sample.name)
                                    : fmt::format("sample '{}' ({})", sample.name, sample.origin.full());
}

std::string describe_outcome(const SampleOutcome& sample) {
  switch (sample.kind) {
    case SampleOutcome::Kind::injected: return "injected " + granted_devices_text(sample.intent);
    case SampleOutcome::Kind::not_gpu: return "not a GPU container";
    case SampleOutcome::Kind::error: return sample.error;
    case SampleOutcome::Kind::refused: break;
  }
  const Reason& refusal = *sample.intent.refusal;
  std::string by = refusal.rule.empty() ? "the policy" : fmt::format("rule '{}'", refusal.rule);
  std::string where = refusal.origin.empty() ? "" : fmt::format(" ({})", refusal.origin.full());
  return fmt::format("refused by {}{}: {}", by, where, refusal.text);
}

Inventory sample_inventory(const Policy& policy) {
  return synthetic_inventory(sample_host(), policy);
}

Result<SampleCheck> check_rules_on_samples(const Policy& policy) {
  auto registered = registered_rules(policy);
  if (!registered) return registered.error();
  std::vector<RuleActivity> seen = std::move(registered).value();  // changed over every sample
  // Ran on a sample that ended injected: a rule seen only by samples that
  // were no GPU containers or were refused was not reached, not idle.
  std::vector<bool> reached(seen.size(), false);
  SampleCheck check;
  for (const SampleRequest& sample : all_samples(policy)) {
    std::vector<RuleActivity> activity;
    check.samples.push_back(run_sample(sample, policy, activity));
    const SampleOutcome& outcome = check.samples.back();
    if (outcome.kind == SampleOutcome::Kind::refused) {
      const std::string& rule = outcome.intent.refusal->rule;
      if (std::find(check.refusing_rules.begin(), check.refusing_rules.end(), rule) == check.refusing_rules.end())
        check.refusing_rules.push_back(rule);
    }
    note_undeclared_reads(activity, check.undeclared_data_reads);
    for (std::size_t i = 0; i < activity.size() && i < seen.size(); ++i) {
      seen[i].changed = seen[i].changed || activity[i].changed;
      reached[i] = reached[i] || (activity[i].ran && outcome.kind == SampleOutcome::Kind::injected);
      if (!activity[i].ran && outcome.kind == SampleOutcome::Kind::refused) ++check.refused_before[seen[i].name];
    }
  }
  for (std::size_t i = 0; i < seen.size(); ++i) {
    if (seen[i].changed) continue;
    (reached[i] ? check.idle_rules : check.unreached_rules).push_back(seen[i]);
  }
  return check;
}

}  // namespace graft
