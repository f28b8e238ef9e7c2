// SPDX-License-Identifier: Apache-2.0
// Running every rule against sample requests on a sample host, for `graft
// policy check`: a rule that fails at run time (a nil index, a misspelt data
// key) fails the check with the sample and its file:line instead of failing
// every GPU container; each sample's outcome is kept, with the refusal's
// rule and file:line, so the check can say what it saw. A rule that changed
// nothing for any sample is idle when it ran for a sample that ended
// injected, and not reached when none did (every GPU sample was refused, or
// failed, before it or after it: it never saw a GPU container come through).
// The samples are two built in (no request; a privileged one) plus the
// policy's [sample.NAME] tables, where a vendor policy states its request
// contract and a site the requests its own rules are for.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "graft/base/error.hpp"
#include "intent/intent.hpp"
#include "policy/policy.hpp"
#include "rules/evaluate_rules.hpp"

namespace graft {

struct SampleOutcome {
  enum class Kind { injected, refused, not_gpu, error };
  std::string name;
  Origin origin;  // the [sample.NAME] table; empty for a built-in sample
  std::string host;  // "8 GPUs, MIG on 0, 1" when the sample sets its host; "" for the sample host
  Kind kind = Kind::not_gpu;
  Intent intent;      // injected and refused: what the rules decided
  std::string error;  // error: the rule, its file:line and what went wrong
};

struct SampleCheck {
  std::vector<SampleOutcome> samples;
  std::vector<RuleActivity> idle_rules;       // ran for an injected sample, changed the Intent for none
  std::vector<RuleActivity> unreached_rules;  // changed nothing, and ran for no sample that ended injected
  std::vector<std::string> refusing_rules;    // the rules that refused a sample, once each
  // Per rule name: the samples refused before that rule ran, which it never
  // saw (an idle rule's line says so: what they asked of it went untested).
  std::map<std::string, std::size_t> refused_before;
  // Rules that read a policy.data key [data_schema] does not declare, each
  // rule once, with the reads (RuleActivity::undeclared_reads) of all samples.
  std::vector<RuleActivity> undeclared_data_reads;

  std::size_t count(SampleOutcome::Kind kind) const;
};

// An error only when the rules do not load (registered_rules): that is one
// error of the policy, not one per sample. A sample a rule fails on is an
// outcome of kind error; the other samples still run.
Result<SampleCheck> check_rules_on_samples(const Policy& policy);

// "sample 'NAME' (file:line:col)", as errors and the report name a sample.
std::string sample_label(const SampleOutcome& sample);

// One line for the report: "injected GPUs 0, 1:0 (compute, utility)",
// "refused by rule 'r' (file:line): why", "not a GPU container", or the error.
std::string describe_outcome(const SampleOutcome& sample);

// The host the samples run on (inventory/synthetic_inventory.hpp): two GPUs,
// the second with two partitions, and every file the policy names.
Inventory sample_inventory(const Policy& policy = {});

}  // namespace graft
