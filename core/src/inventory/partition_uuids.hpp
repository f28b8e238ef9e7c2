// SPDX-License-Identifier: Apache-2.0
// Partition UUIDs without the vendor's management library: the driver's
// procfs names partitions by GPU minor, GI and CI only, so a partition
// manager (whatever configures the partitions) may write
// discovery.partition_uuid_file, one line per partition:
//
//   # comment
//   <uuid> <gpu minor> <gi> <ci>
//
// Each line whose partition discovery found gives that partition its UUID.
// The file is host configuration: read with the trusted-file checks (a file
// anyone may write could steer a UUID request to another partition), at most
// 1 MiB. A missing file means no UUIDs. An untrusted or malformed file is a
// warning and gives no partition a UUID, so requests by UUID are refused
// rather than resolved from a file graft cannot vouch for.
#pragma once

#include "inventory/inventory.hpp"

namespace graft {

Status read_partition_uuids(const Policy& policy, Inventory& inventory);

}  // namespace graft
