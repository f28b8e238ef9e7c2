// SPDX-License-Identifier: Apache-2.0
// Who owns a file, as seen from inside a user namespace (a rootless
// container's hooks run in one). The kernel shows an owner the namespace does
// not map as the overflow uid (/proc/sys/kernel/overflowuid, 65534), so host
// root and every other unmapped host user look the same there; and rootless
// podman's own map usually maps 65534 as well (a subordinate uid), so the
// overflow uid alone does not even say "unmapped". This file owns the pure
// reading of /proc/self/uid_map and what an owner uid can mean through it;
// trusted_file.cpp asks the kernel the one question stat cannot answer
// (is the owner mapped?) and decides. docs/security.md has the reasoning.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string_view>
#include <vector>

#include "graft/base/error.hpp"

namespace graft {

// One line of /proc/PID/uid_map: ids [inside, inside+count) of the namespace
// are [outside, outside+count) of its parent.
struct IdRange {
  std::uint32_t inside = 0;
  std::uint32_t outside = 0;
  std::uint32_t count = 0;
};

struct IdMap {
  std::vector<IdRange> ranges;

  // The initial namespace's identity map, "0 0 4294967295".
  bool is_initial() const;
  bool maps_inside(std::uint32_t id) const;
  bool maps_outside(std::uint32_t id) const;
};

// /proc/PID/uid_map's text (at most 340 lines of three numbers); an error
// names the line.
Result<IdMap> parse_id_map(std::string_view text);

// What graft knows about its own namespace: its uid map, the overflow uid
// and its effective uid (as seen inside).
struct UserNamespaceView {
  IdMap uids;
  uid_t overflow_uid = 65534;
  uid_t euid = 0;
};

// What an owner uid (st_uid, seen inside) is to graft.
enum class OwnerKind {
  root,          // uid 0 of this namespace (outside one: host root)
  us,            // the uid graft runs as
  unmapped,      // not mapped here, nor is host root, while graft's own uid is: may be host root
  overflow,      // the overflow uid, which this map also maps: ask the kernel (owner_is_mapped)
  someone_else,  // a mapped user other than root and us, or, where host root
                 // is mapped, an unmapped owner (then certainly not root)
};

OwnerKind classify_owner(uid_t uid, const UserNamespaceView& view);

// An `overflow` owner settled by the kernel's answer: mapped (someone
// inside, a container's user) or not (then as an unmapped owner).
OwnerKind settle_overflow(bool owner_mapped, const UserNamespaceView& view);

// This process's view: /proc/self/uid_map and /proc/sys/kernel/overflowuid,
// read once. Without them (no /proc) it is the initial namespace's, where
// only root and graft's own uid are trusted.
const UserNamespaceView& own_user_namespace();

}  // namespace graft
