// SPDX-License-Identifier: Apache-2.0
// What a driver library says about itself: its ABI (the ELF class and
// machine, as an ld.so.cache entry's flags say it for a cached one) and its
// DT_SONAME, the name the dynamic linker and the container's cache know it
// by (a host cache may also list it under its linker name, libX.so). The file lives in a
// driver directory someone else may write, so every offset, count and
// string is checked against the file before it is read.
#pragma once

#include <string>

#include "graft/base/error.hpp"
#include "graft/base/ldcache.hpp"

namespace graft {

struct ElfIdentity {
  LdCacheAbi abi = LdCacheAbi::other;
  std::string soname;  // "" when the object names none
};

// Reads the ELF header and dynamic section of the regular file open at `fd`
// (the caller keeps it). A file that is not an ELF shared object of this
// machine's byte order, or whose headers point outside it, is an error
// naming `name`.
Result<ElfIdentity> read_elf_identity(int fd, const std::string& name);

// The same for the real file `real` (root-relative, no link left in it)
// inside the host root `root`.
Result<ElfIdentity> read_elf_identity_in_root(const std::string& root, const std::string& real);

}  // namespace graft
