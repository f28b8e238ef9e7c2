// SPDX-License-Identifier: Apache-2.0
#include "evaluation/container_outcome.hpp"

namespace graft {

std::string_view outcome_name(ContainerOutcome outcome) {
  switch (outcome) {
    case ContainerOutcome::untouched: return "untouched";
    case ContainerOutcome::planned: return "planned";
    case ContainerOutcome::applied: return "applied";
    case ContainerOutcome::refused: return "refused";
    case ContainerOutcome::error: return "error";
  }
  return "error";
}

}  // namespace graft
