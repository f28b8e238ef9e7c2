// SPDX-License-Identifier: Apache-2.0
// The identity the confined ldconfig runs as. It starts as the owner of the
// image's "/" (graft_apply_context.container_uid/gid, from fstat of the
// root), which whoever built the image chose; it is kept only when the
// container's user namespace maps it (/proc/<pid>/uid_map and gid_map of the
// container's init, read in the host's namespace). Otherwise the child runs
// as the container's own root (the host ids that inside-0 maps to), which
// is no more than the container already is; a container whose map has no
// root either is refused.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "graft/base/error.hpp"

namespace graft::ldcache {

// One line of a uid_map or gid_map: ids [inside, inside+count) of the
// namespace are [outside, outside+count) of the reader's (the host's).
struct IdRange {
  std::uint32_t inside = 0;
  std::uint32_t outside = 0;
  std::uint32_t count = 0;
};

// The lines of a uid_map/gid_map file; a malformed line is an error.
Result<std::vector<IdRange>> parse_id_map(std::string_view text);

// Whether host id `id` is one the map maps.
bool maps_host_id(const std::vector<IdRange>& map, std::uint32_t id);

struct Identity {
  uid_t uid = 0;
  gid_t gid = 0;
  bool fell_back = false;  // the owner was not mapped; this is the container's root
};

// The owner's ids when both maps map them, else the container's root (the
// host ids of inside 0 in each map), else an error naming the owner.
Result<Identity> child_identity(uid_t owner_uid, gid_t owner_gid,
                                const std::vector<IdRange>& uid_map,
                                const std::vector<IdRange>& gid_map);

}  // namespace graft::ldcache
