// SPDX-License-Identifier: Apache-2.0
// The seccomp filter of the confined child: a deny list of the system calls
// ldconfig never makes and a subverted one could use to reach past its
// chroot and namespaces (mounts, ptrace, modules, kexec, bpf, keys, new
// namespaces, handles, perf, io_uring) or to multiply (fork, clone, vfork,
// execve). A denied call fails with EPERM; a call from another ABI (x32, or
// i386 on x86-64) kills the process, since the numbers below mean nothing
// there. Built before fork (it allocates), installed by the child just
// before it executes the sealed binary.
#pragma once

#include <linux/filter.h>

#include <vector>

namespace graft::ldcache {

// The classic BPF program. Empty on an architecture this file does not know,
// where install_child_filter then refuses to run anything.
std::vector<sock_filter> child_filter();

// Installs `program` on the calling thread (async-signal-safe: one system
// call). Needs no_new_privs set first. Returns 0 or -1 with errno.
int install_child_filter(const std::vector<sock_filter>& program);

}  // namespace graft::ldcache
