// SPDX-License-Identifier: Apache-2.0
// Fuzz target: read_elf_identity (core/src/inventory/elf_identity.cpp), which
// discovery applies to every candidate file of a [discovery] library_dirs
// directory: arbitrary bytes as the file, through a memfd so the reader sees
// a regular file of exactly that size.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "graft/base/unique_fd.hpp"
#include "inventory/elf_identity.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  graft::UniqueFd fd(::memfd_create("fuzz-elf", MFD_CLOEXEC));
  if (!fd.valid()) std::abort();
  for (std::size_t done = 0; done < size;) {
    ssize_t wrote = ::write(fd.get(), data + done, size - done);
    if (wrote <= 0) std::abort();
    done += static_cast<std::size_t>(wrote);
  }
  auto identity = graft::read_elf_identity(fd.get(), "fuzz");
  if (!identity) {
    if (identity.error().message.empty()) std::abort();
    return 0;
  }
  // The soname came out of the input, bounded by the reader.
  if (identity->soname.size() > size || identity->soname.size() >= 256) std::abort();
  return 0;
}
