// SPDX-License-Identifier: Apache-2.0
// A policy test case (docs/policy-test.md): a request, the host it runs on,
// and what the plan must show. Pure data, read from a TOML or Lua file by
// case_file.hpp; run by run_case.hpp; compared by case_compare.hpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "inventory/synthetic_inventory.hpp"
#include "policy/origin.hpp"
#include "request/request.hpp"

namespace graft {

// A text pattern: an ECMAScript regular expression searched anywhere in the
// text (std::regex_search); anchor it with ^ and $ for a whole match.
struct TextPattern {
  std::string source;
};

struct ExpectedDenial {
  std::string what;  // exactly as the plan names it: "GPU 0", "capability display"
  TextPattern reason;
};

struct ExpectedAction {
  std::string kind;    // "bind_mount", "device_node", ...; empty: any kind
  std::string target;  // exact container path (for cgroup_allow "c MAJ:MIN")
};

// What the case checks; an unset field is not checked, except `refused`:
// a case that does not mention it expects no refusal.
struct Expectation {
  std::optional<bool> injected;
  std::optional<std::vector<std::string>> devices;       // "0", "1:0" (GPU:partition), in any order
  std::optional<std::vector<std::string>> capabilities;  // granted names, in any order
  std::optional<std::vector<ExpectedDenial>> denied;     // the complete list, in any order
  bool refused = false;                                  // a refusal is expected
  std::optional<TextPattern> refusal;                    // ... and its text matches this
  // The rules or the planner fail with an error matching this (e.g. a
  // partition whose capability minors are missing); nothing else is checked.
  std::optional<TextPattern> error;
  std::vector<ExpectedAction> actions_present;
  std::vector<ExpectedAction> actions_absent;
};

struct PolicyCase {
  std::string name;  // the `name` key, or the file name without extension
  std::string description;
  std::string file;
  Request request;
  HostShape host;
  Expectation expect;
};

}  // namespace graft
