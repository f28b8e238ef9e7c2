// SPDX-License-Identifier: Apache-2.0
// The plugin ABI's struct layout, pinned: members of plugin.h may be renamed
// or retyped (int -> int32_t, expand -> reserved) only where their offsets and
// sizes stay, since plugins built against an older header keep loading. The
// offsets are those of ABI 1.3 on an LP64 Linux (x86_64, aarch64).
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "graft/plugin.h"

namespace graft {

// graft_status replaced `int` as the calls' return: as wide and as signed,
// so a value an older plugin returns reads the same.
static_assert(sizeof(graft_status) == sizeof(std::int32_t));
static_assert(std::is_signed_v<std::underlying_type_t<graft_status>>);
static_assert(GRAFT_OK == 0 && GRAFT_ERROR == 1);

#if defined(__LP64__)
static_assert(sizeof(graft_action) == 128);
static_assert(offsetof(graft_action, device_type) == 40);
static_assert(offsetof(graft_action, major) == 44);
static_assert(offsetof(graft_action, content_length) == 72);
static_assert(offsetof(graft_action, index) == 120);

static_assert(sizeof(graft_apply_context) == 64);
static_assert(offsetof(graft_apply_context, rootfs_fd) == 16);
static_assert(offsetof(graft_apply_context, pid) == 32);
static_assert(offsetof(graft_apply_context, container_uid) == 36);
static_assert(offsetof(graft_apply_context, container_gid) == 40);
static_assert(offsetof(graft_apply_context, pidfd) == 44);
static_assert(offsetof(graft_apply_context, source_root_fd) == 48);
static_assert(offsetof(graft_apply_context, source_root) == 56);

static_assert(sizeof(graft_host_services) == 32);
static_assert(sizeof(graft_finding) == 24);
static_assert(sizeof(graft_finding_sink) == 24);

static_assert(sizeof(graft_plugin) == 112);
static_assert(offsetof(graft_plugin, name) == 16);
static_assert(offsetof(graft_plugin, kind_count) == 40);
static_assert(offsetof(graft_plugin, init) == 48);
static_assert(offsetof(graft_plugin, last_error) == 72);
static_assert(offsetof(graft_plugin, reserved) == 80);
static_assert(offsetof(graft_plugin, prepare) == 88);
static_assert(offsetof(graft_plugin, verify) == 104);
#endif

}  // namespace graft
