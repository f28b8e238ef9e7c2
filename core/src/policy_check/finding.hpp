// SPDX-License-Identifier: Apache-2.0
// The lines of `graft policy check`'s report as data: each finding has a kind,
// which names its label and its severity, and a text. Everything the check
// says goes through here, so `--strict` can turn every warning into an error
// without knowing what the warning is about: a new kind of warning is one
// line in `check_kinds` below and a push_back where it is found.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "graft/base/error.hpp"

namespace graft {

enum class Severity { info, warning, error };

struct CheckKind {
  std::string_view label;  // the report's first column, at most 9 characters
  Severity severity;
};

// Every kind of line `graft policy check` prints.
namespace check_kinds {
inline constexpr CheckKind policy_file{"policy", Severity::info};
inline constexpr CheckKind rule_file{"rules", Severity::info};
inline constexpr CheckKind rule_module{"module", Severity::info};
inline constexpr CheckKind load_error{"error", Severity::error};        // a rule file that does not load
inline constexpr CheckKind sample{"sample", Severity::info};            // one sample's outcome
inline constexpr CheckKind sample_error{"error", Severity::error};      // a rule raised on a sample
inline constexpr CheckKind samples{"samples", Severity::info};          // the samples' summary
inline constexpr CheckKind idle_rule{"idle", Severity::warning};        // ran, changed nothing
inline constexpr CheckKind unreached_rule{"unreached", Severity::warning};  // ran for no sample
// An idle or unreached rule of the vendor layer: its own tests cover it.
inline constexpr CheckKind vendor_rule_unexercised{"untested", Severity::info};
inline constexpr CheckKind needs_error{"error", Severity::error};       // what the hook needs is missing
inline constexpr CheckKind needs_warning{"warning", Severity::warning};
inline constexpr CheckKind needs_skipped{"needs", Severity::info};
inline constexpr CheckKind host_error{"error", Severity::error};
inline constexpr CheckKind host_warning{"warning", Severity::warning};
inline constexpr CheckKind host{"host", Severity::info};
inline constexpr CheckKind setting_override{"warning", Severity::warning};
// A host path outside the policy boundary (boundary/): refused by the hook too.
inline constexpr CheckKind boundary_error{"error", Severity::error};
inline constexpr CheckKind boundary_warning{"warning", Severity::warning};  // a site's own places, ignored
inline constexpr CheckKind boundary{"boundary", Severity::info};  // a later site file changed a key
// A rule read a data key no [data_schema] declares: a warning, an error once the policy declares a schema.
inline constexpr CheckKind undeclared_read{"warning", Severity::warning};
inline constexpr CheckKind undeclared_read_error{"error", Severity::error};
}  // namespace check_kinds

struct CheckFinding {
  CheckKind kind;
  std::string text;
  std::string hint = {};  // added to the final error line only, e.g. "(--offline checks the policy alone)"
};

// "idle     rule 'x' ...": the label padded to one column.
std::string finding_line(const CheckFinding& finding);

// The check's verdict over every finding: ok, or one error naming the first
// error (with `strict`, the first error or warning) and how many more there
// are above.
Status check_verdict(const std::vector<CheckFinding>& findings, bool strict);

}  // namespace graft
