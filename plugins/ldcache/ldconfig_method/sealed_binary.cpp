// SPDX-License-Identifier: Apache-2.0
// seal_host_binary: open and vet the host file, copy it into a memfd, seal
// the memfd, and check the sealed copy (the bytes that will run) is static.
#include "sealed_binary.hpp"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>
#include <vector>

#include "graft/base/write_all.hpp"

namespace graft::ldcache {
namespace {

// An ldconfig is ~1 MiB; anything far larger is not what the policy meant.
constexpr off_t kMaxBinarySize = 64 << 20;
constexpr ElfW(Half) kMaxProgramHeaders = 512;

#if defined(__x86_64__)
constexpr ElfW(Half) kMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr ElfW(Half) kMachine = EM_AARCH64;
#elif defined(__powerpc64__)
constexpr ElfW(Half) kMachine = EM_PPC64;
#else
constexpr ElfW(Half) kMachine = EM_NONE;  // not checked
#endif

#if defined(__LP64__)
constexpr unsigned char kClass = ELFCLASS64;
#else
constexpr unsigned char kClass = ELFCLASS32;
#endif
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
constexpr unsigned char kData = ELFDATA2LSB;
#else
constexpr unsigned char kData = ELFDATA2MSB;
#endif

#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U
#endif

// The file must be what only root could have put there: a path the policy
// names is trusted only as far as its owner and mode say.
Status check_owner_and_mode(int fd, const std::string& path) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return make_sys_error(errno, "{}", path);
  if (!S_ISREG(st.st_mode)) return make_error("{}: not a regular file", path);
  if (st.st_uid != 0) return make_error("{}: owned by uid {}, not root", path, st.st_uid);
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
    return make_error("{}: writable by group or others (mode {:04o})", path, st.st_mode & 07777);
  if (st.st_size > kMaxBinarySize)
    return make_error("{}: {} bytes, more than the {} an ldconfig may have", path, st.st_size,
                      kMaxBinarySize);
  return ok_status();
}

// Kernels since 6.3 want MFD_EXEC said out loud (vm.memfd_noexec); older
// ones refuse the flag, so retry without it.
Result<UniqueFd> create_memfd(const std::string& path) {
  const unsigned flags = MFD_CLOEXEC | MFD_ALLOW_SEALING;
  int fd = ::memfd_create("ldconfig", flags | MFD_EXEC);
  if (fd < 0 && errno == EINVAL) fd = ::memfd_create("ldconfig", flags);
  if (fd < 0) return make_sys_error(errno, "{}: memfd_create", path);
  return UniqueFd(fd);
}

Status copy_all(int from, int to, const std::string& path) {
  std::vector<char> buffer(1 << 16);
  for (;;) {
    ssize_t got = ::read(from, buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return make_sys_error(errno, "{}: read", path);
    if (got == 0) return ok_status();
    // write_all: a write that takes nothing is an error, not a reason to loop.
    if (auto put = write_all(to, std::string_view(buffer.data(), static_cast<size_t>(got)), path + " (memfd copy)");
        !put.ok())
      return put.error();
  }
}

bool read_exact(int fd, void* into, size_t size, off_t offset) {
  return ::pread(fd, into, size, offset) == static_cast<ssize_t>(size);
}

Status check_header(const ElfW(Ehdr)& header, const std::string& path) {
  if (header.e_ident[EI_CLASS] != kClass || header.e_ident[EI_DATA] != kData ||
      (kMachine != EM_NONE && header.e_machine != kMachine))
    return make_error("{}: an ELF file for another machine", path);
  if (header.e_type != ET_EXEC && header.e_type != ET_DYN)
    return make_error("{}: an ELF file but not an executable", path);
  if (header.e_phentsize != sizeof(ElfW(Phdr)) || header.e_phnum == 0 ||
      header.e_phnum > kMaxProgramHeaders)
    return make_error("{}: malformed ELF program headers", path);
  return ok_status();
}

}  // namespace

Status check_static_elf(int fd, const std::string& path) {
  ElfW(Ehdr) header{};
  ssize_t got = ::pread(fd, &header, sizeof header, 0);
  if (got < SELFMAG || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0)
    return make_error("{}: not an ELF executable (a script would run an interpreter from the "
                      "container image)", path);
  if (got != sizeof header) return make_error("{}: truncated ELF header", path);
  if (auto checked = check_header(header, path); !checked.ok()) return checked;
  std::vector<ElfW(Phdr)> headers(header.e_phnum);
  if (!read_exact(fd, headers.data(), headers.size() * sizeof(ElfW(Phdr)),
                  static_cast<off_t>(header.e_phoff)))
    return make_error("{}: truncated ELF program headers", path);
  for (const auto& program : headers) {
    // PT_INTERP names the dynamic loader the kernel would map first: inside
    // the container root that is the image's ld.so, running as root.
    if (program.p_type == PT_INTERP)
      return make_error("{}: dynamically linked (it names an ELF interpreter), so it would load "
                        "the container image's ld.so and libraries; a static ldconfig is required",
                        path);
  }
  return ok_status();
}

#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE 0x0010
#endif

// F_SEAL_WRITE fails with EBUSY while any page of the file has a reference
// the kernel counts as a pin, and a page just written can hold one for a
// while from another CPU's LRU batch (seen: 1 container start in 90 under
// the bench). seal_host_binary never maps its memfd, so F_SEAL_FUTURE_WRITE
// (Linux 5.1), which refuses every later write, truncation and writable
// mapping, seals the same bytes.
Status seal_memfd(int fd, const std::string& path) {
  constexpr int kSeals = F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW;
  if (::fcntl(fd, F_ADD_SEALS, kSeals | F_SEAL_WRITE) == 0) return ok_status();
  if (errno == EBUSY && ::fcntl(fd, F_ADD_SEALS, kSeals | F_SEAL_FUTURE_WRITE) == 0) return ok_status();
  return make_sys_error(errno, "{}: sealing the memfd copy", path);
}

Result<UniqueFd> seal_host_binary(const std::string& path) {
  if (path.empty() || path.front() != '/') return make_error("'{}': not an absolute path", path);
  UniqueFd file(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY));
  if (!file.valid()) return make_sys_error(errno, "{}", path);
  if (auto vetted = check_owner_and_mode(file.get(), path); !vetted.ok()) return vetted.error();
  auto memfd = create_memfd(path);
  if (!memfd.ok()) return memfd;
  if (auto copied = copy_all(file.get(), memfd->get(), path); !copied.ok()) return copied.error();
  // Sealed, the copy can never change again: not through this fd, not
  // through /proc/<pid>/exe of the running ldconfig.
  if (auto sealed = seal_memfd(memfd->get(), path); !sealed.ok()) return sealed.error();
  // Checked after sealing: these are exactly the bytes that will run.
  if (auto checked = check_static_elf(memfd->get(), path); !checked.ok()) return checked.error();
  return memfd;
}

}  // namespace graft::ldcache
