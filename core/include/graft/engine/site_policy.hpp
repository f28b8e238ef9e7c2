// SPDX-License-Identifier: Apache-2.0
// The site policy as a front end holds it: loaded once, the shipped
// policies' directory searched after any the caller names, and the few
// settings a front end acts on by itself (its deadline, the real runtime).
// The model stays inside the engine; a front end passes the handle back.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "graft/base/error.hpp"
#include "graft/engine/install_dirs.hpp"

namespace graft {

struct Policy;  // the engine's model, opaque here

struct PolicyLocation {
  std::string path;                      // the site policy file
  std::vector<std::string> policy_dirs;  // searched for includes before the shipped policies
  std::string node_allow = node_allow_path();  // the node's allow file; "" reads none
};

class SitePolicy {
 public:
  explicit SitePolicy(std::shared_ptr<const Policy> policy) : policy_(std::move(policy)) {}

  std::uint64_t deadline_ms() const;        // [limits] deadline_ms
  const std::string& runtime_path() const;  // [runtime] path: the real OCI runtime
  bool declarative() const;                 // [runtime] mode = "declarative"
  const Policy& model() const { return *policy_; }  // for the engine's own calls

 private:
  std::shared_ptr<const Policy> policy_;
};

// Errors name the file, line and key.
Result<SitePolicy> load_site_policy(const PolicyLocation& location);

// The site policy graft reads when told none (/etc/graft/graft.toml under
// the install prefix).
std::string default_site_policy_path();
// What holds before a policy is read: the deadline that bounds reading it,
// and the runtime a front end falls back to when it cannot be read.
std::uint64_t default_deadline_ms();
std::string default_runtime_path();

}  // namespace graft
