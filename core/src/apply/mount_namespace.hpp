// Entering a container's mount namespace. graft opens and verifies every
// host object first (plugins' prepare), then joins the namespace of the
// container's init process, where apply attaches them inside root.path.
#pragma once

#include "base/error.hpp"

namespace graft {

// setns into the mount namespace of `pid`, through a pidfd so a recycled pid
// cannot redirect us. A no-op when `pid` already shares ours. The process must
// be single-threaded (the kernel's rule for CLONE_NEWNS).
Status enter_mount_namespace(int pid);

}  // namespace graft
