// SPDX-License-Identifier: Apache-2.0
// How long a container's prestart hook may take, scaled to the build. The
// sanitizer build runs graft about five times slower than Release
// (GRAFT_SLOWDOWN, set by tests/e2e/CMakeLists.txt), and under ctest -j2 on
// two cores a hook also waits for the CPU. runc's own limit is kept above
// graft's deadline, so a slow hook ends with graft's message (which names
// what was running) and never with runc's "hook ran past specified timeout".
#pragma once

namespace graft::e2e {

// 1 in a Release build, 5 in the sanitizer build.
inline constexpr unsigned kBuildSlowdown = GRAFT_SLOWDOWN;

// graft's own deadline for the policies the load tests write: the default
// 30 s ([limits] deadline_ms), scaled to the build.
inline constexpr unsigned kHookDeadlineMs = 30'000 * kBuildSlowdown;

// The "timeout" of the prestart hook in config.json, in seconds: graft's
// deadline plus a margin for runc to see graft exit.
inline constexpr unsigned kRuntimeHookTimeoutS = kHookDeadlineMs / 1000 + 10;

}  // namespace graft::e2e
