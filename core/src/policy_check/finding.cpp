// SPDX-License-Identifier: Apache-2.0
// finding_line and check_verdict: the report's one format and its one rule
// for failing, whatever kinds of finding there are.
#include "policy_check/finding.hpp"

#include <cstddef>

#include <fmt/format.h>

namespace graft {
namespace {

bool fails(const CheckFinding& finding, bool strict) {
  return finding.kind.severity == Severity::error || (strict && finding.kind.severity == Severity::warning);
}

}  // namespace

std::string finding_line(const CheckFinding& finding) { return fmt::format("{:<8} {}", finding.kind.label, finding.text); }

Status check_verdict(const std::vector<CheckFinding>& findings, bool strict) {
  const CheckFinding* first = nullptr;
  std::size_t count = 0;
  for (const CheckFinding& finding : findings) {
    if (!fails(finding, strict)) continue;
    if (count++ == 0) first = &finding;
  }
  if (!first) return ok_status();
  std::string more =
      count > 1 ? fmt::format("; {} more {} above", count - 1, strict ? "errors and warnings" : "errors") : "";
  std::string hint = first->hint.empty() ? "" : " " + first->hint;
  if (first->kind.severity == Severity::warning)
    return make_error("--strict: {} {}{}{}", first->kind.label, first->text, hint, more);
  return make_error("{}{}{}", first->text, hint, more);
}

}  // namespace graft
