// SPDX-License-Identifier: Apache-2.0
// The outcome words the audit log records: scripts and the docs
// (docs/policy.md, [audit]) rely on them.
#include <catch2/catch.hpp>

#include "evaluation/container_outcome.hpp"

using namespace graft;

TEST_CASE("each container outcome has the word its audit record uses", "[outcome]") {
  CHECK(outcome_name(ContainerOutcome::planned) == "planned");
  CHECK(outcome_name(ContainerOutcome::applied) == "applied");
  CHECK(outcome_name(ContainerOutcome::refused) == "refused");
  CHECK(outcome_name(ContainerOutcome::error) == "error");
  CHECK(outcome_name(ContainerOutcome::untouched) == "untouched");
}

TEST_CASE("an outcome out of range is named error, never an empty word", "[outcome]") {
  CHECK(outcome_name(static_cast<ContainerOutcome>(99)) == "error");
}
