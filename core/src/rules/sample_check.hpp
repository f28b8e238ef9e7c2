// Running every rule against sample requests on a sample host, for `graft
// policy check`: a rule that fails at run time (a nil index, a misspelt data
// key) fails the check with its file:line instead of failing every GPU
// container; a rule that changes nothing for any sample is reported idle.
// The samples are two built in (no request; a privileged one) plus the
// policy's [sample.NAME] tables, where a vendor policy states its request
// contract and a site the requests its own rules are for.
#pragma once

#include <cstddef>
#include <vector>

#include "graft/base/error.hpp"
#include "policy/policy.hpp"
#include "rules/evaluate_rules.hpp"

namespace graft {

struct SampleCheck {
  std::size_t samples = 0;
  std::size_t injected = 0, refused = 0, skipped = 0;
  std::vector<RuleActivity> idle_rules;  // changed the Intent for no sample
  // Rules that read a policy.data key [data_schema] does not declare, each
  // rule once, with the reads (RuleActivity::undeclared_reads) of all samples.
  std::vector<RuleActivity> undeclared_data_reads;
};

Result<SampleCheck> check_rules_on_samples(const Policy& policy);

// The host the samples run on (inventory/synthetic_inventory.hpp): two GPUs,
// the second with two partitions, and every file the policy names.
Inventory sample_inventory(const Policy& policy = {});

}  // namespace graft
