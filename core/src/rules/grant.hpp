// SPDX-License-Identifier: Apache-2.0
// Grant: the Intent under construction, changed only through checked
// operations. Each operation takes the Reason (text + rule file:line) that the
// Intent keeps for the audit. Knows nothing of Lua; grant_api binds it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "graft/base/error.hpp"
#include "intent/intent.hpp"
#include "inventory/inventory.hpp"
#include "policy/policy.hpp"
#include "rules/rule_phase.hpp"

namespace graft::rules {

class Grant {
 public:
  Grant(const Inventory& inventory, const Policy& policy) : inventory_(inventory), policy_(policy) {}

  // `vendor` "" injects or skips for no vendor in particular; a named one
  // must be a [vendor.NAME] of the policy.
  Status inject(const Reason& reason, const std::string& vendor = "");
  Status skip(const Reason& reason, const std::string& vendor = "");
  bool injecting(const std::string& vendor) const;

  Status add_device(std::int64_t gpu, const Reason& reason);
  Status add_partition(std::int64_t gpu, std::int64_t partition, const Reason& reason);
  // Removing the last GPU of an injecting container refuses it, as
  // restrict_devices does, unless `allow_none`.
  Status remove_device(std::int64_t gpu, const Reason& reason, bool allow_none);
  // keep[i] != 0 keeps GPU i; every other granted GPU is removed and denied.
  // A restriction that leaves an injecting container, which had GPUs, with
  // none refuses it, unless `allow_none`: a mistyped lease must not start a
  // silent CPU-only job.
  void restrict_devices(std::span<const unsigned char> keep, const Reason& reason, bool allow_none);

  Status add_capability(std::string_view name, const Reason& reason);
  Status drop_capability(std::string_view name, const Reason& reason);
  Status add_extra(std::string_view name, const Reason& reason);
  Status drop_extra(std::string_view name, const Reason& reason);

  // Grants the nodes of a fixed or glob device class (no number), node
  // `number` of a per-minor class, or GPU `number`'s nodes of a per-GPU
  // sysfs class; the planner finds them on the host.
  Status add_node(std::string_view device_class, std::optional<std::int64_t> number, const Reason& reason);

  Status set_env(std::string_view name, std::string_view value, const Reason& reason);
  Status write_file(std::string_view path, std::string_view content, const Reason& reason);
  void note(std::string_view text);
  void deny(const Reason& reason);

  // The phase of the rules running now; derive and check rules may not
  // change what is granted (grant_api checks before each such method).
  void enter_phase(RulePhase phase) { phase_ = phase; }
  RulePhase phase() const { return phase_; }
  // The rule running now: each Reason names it, so the audit log can be
  // searched by rule (`graft log --rule`).
  void enter_rule(std::string_view name) { rule_ = name; }
  const std::string& rule() const { return rule_; }

  std::size_t gpu_count() const { return inventory_.gpus.size(); }
  std::optional<unsigned> gpu_by_uuid(std::string_view uuid) const noexcept;
  bool refused() const { return intent_.refusal.has_value(); }
  const Intent& intent() const { return intent_; }
  Intent take() { return std::move(intent_); }

 private:
  Status check_gpu(std::int64_t gpu) const;
  Status check_vendor(const std::string& vendor) const;
  void add_device_grant(DeviceGrant grant);
  void remove_gpu(unsigned gpu, const Reason& reason);
  void refuse_if_none_left(const Reason& reason, std::string_view what);

  const Inventory& inventory_;
  const Policy& policy_;
  Intent intent_;
  RulePhase phase_ = RulePhase::request;
  std::string rule_;
};

}  // namespace graft::rules
