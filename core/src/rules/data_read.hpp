// SPDX-License-Identifier: Apache-2.0
// DataRead: a rule's read of a top-level policy.data key that [data_schema]
// does not declare, recorded by the policy view while activity is recorded,
// so that `graft policy check` can name the key and the line that read it.
#pragma once

#include <string>

#include "policy/origin.hpp"

namespace graft {

struct DataRead {
  std::string key;  // the top-level key, without "data."
  Origin at;        // the rule file's line that read it
  bool operator==(const DataRead&) const = default;
};

}  // namespace graft
