// SPDX-License-Identifier: Apache-2.0
// ELF reading for elf_identity.hpp: the header, then the section headers to
// find the dynamic section and its string table (sh_link), then DT_SONAME.
// Section headers rather than program headers: they give file offsets
// directly, and the driver's libraries keep them.
#include "inventory/elf_identity.hpp"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <optional>
#include <vector>

#include "paths/paths.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft {
namespace {

// Far more than any shared object has; a header claiming more is refused.
constexpr std::size_t kMaxSections = 1u << 16;
constexpr std::size_t kMaxDynamicEntries = 1u << 12;
constexpr std::size_t kMaxSonameBytes = 256;

#if defined(__x86_64__)
constexpr unsigned kNativeMachine = EM_X86_64, kCompat32Machine = EM_386;
#elif defined(__aarch64__)
constexpr unsigned kNativeMachine = EM_AARCH64, kCompat32Machine = EM_ARM;
#else
#error "unsupported architecture: add its ELF machines"
#endif

// Reads exactly `size` bytes at `offset` within a file of `file_size` bytes.
bool pread_exact(int fd, std::uint64_t file_size, std::uint64_t offset, void* into, std::size_t size) {
  if (offset > file_size || size > file_size - offset) return false;
  auto* out = static_cast<char*>(into);
  while (size > 0) {
    ssize_t got = ::pread(fd, out, size, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    out += got, offset += static_cast<std::uint64_t>(got), size -= static_cast<std::size_t>(got);
  }
  return true;
}

struct Elf64 {
  using Ehdr = Elf64_Ehdr;
  using Shdr = Elf64_Shdr;
  using Dyn = Elf64_Dyn;
};
struct Elf32 {
  using Ehdr = Elf32_Ehdr;
  using Shdr = Elf32_Shdr;
  using Dyn = Elf32_Dyn;
};

// The NUL-terminated string at `offset` of the string table at
// `table_offset` (`table_size` bytes), all checked against the file first.
std::optional<std::string> string_in_table(int fd, std::uint64_t file_size, std::uint64_t table_offset,
                                           std::uint64_t table_size, std::uint64_t offset) {
  if (offset >= table_size || table_offset > file_size || offset > file_size - table_offset) return std::nullopt;
  char buffer[kMaxSonameBytes] = {};
  std::size_t size = static_cast<std::size_t>(std::min<std::uint64_t>(table_size - offset, sizeof buffer));
  if (!pread_exact(fd, file_size, table_offset + offset, buffer, size)) return std::nullopt;
  const void* end = std::memchr(buffer, '\0', size);
  if (end == nullptr) return std::nullopt;
  return std::string(buffer, static_cast<std::size_t>(static_cast<const char*>(end) - buffer));
}

template <class Elf>
Result<std::string> read_soname(int fd, std::uint64_t file_size, const std::string& name) {
  typename Elf::Ehdr header{};
  if (!pread_exact(fd, file_size, 0, &header, sizeof header)) return make_error("{}: truncated ELF header", name);
  if (header.e_shnum == 0) return std::string();  // no section headers: no soname to read
  if (header.e_shentsize != sizeof(typename Elf::Shdr) || header.e_shnum > kMaxSections)
    return make_error("{}: bad ELF section header table", name);
  std::vector<typename Elf::Shdr> sections(header.e_shnum);
  if (!pread_exact(fd, file_size, header.e_shoff, sections.data(), sections.size() * sizeof sections[0]))
    return make_error("{}: ELF section headers outside the file", name);
  for (const auto& dynamic : sections) {
    if (dynamic.sh_type != SHT_DYNAMIC) continue;
    if (dynamic.sh_link >= sections.size()) return make_error("{}: bad ELF dynamic string table", name);
    const auto& strtab = sections[dynamic.sh_link];
    std::size_t count = static_cast<std::size_t>(
        std::min<std::uint64_t>(dynamic.sh_size / sizeof(typename Elf::Dyn), kMaxDynamicEntries));
    std::vector<typename Elf::Dyn> entries(count);
    if (!pread_exact(fd, file_size, dynamic.sh_offset, entries.data(), count * sizeof(typename Elf::Dyn)))
      return make_error("{}: ELF dynamic section outside the file", name);
    for (const auto& entry : entries) {
      if (entry.d_tag == DT_NULL) break;
      if (entry.d_tag != DT_SONAME) continue;
      auto soname = string_in_table(fd, file_size, strtab.sh_offset, strtab.sh_size, entry.d_un.d_val);
      if (!soname) return make_error("{}: bad ELF DT_SONAME", name);
      return *soname;
    }
    return std::string();
  }
  return std::string();
}

}  // namespace

Result<ElfIdentity> read_elf_identity(int fd, const std::string& name) {
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) return make_error("{}: not a regular file", name);
  auto file_size = static_cast<std::uint64_t>(info.st_size);
  unsigned char ident[EI_NIDENT + 4] = {};  // e_ident, e_type, e_machine: the same in both classes
  if (!pread_exact(fd, file_size, 0, ident, sizeof ident) || std::memcmp(ident, ELFMAG, SELFMAG) != 0)
    return make_error("{}: not an ELF file", name);
  std::uint16_t type = 0, machine = 0;
  std::memcpy(&type, ident + EI_NIDENT, 2);
  std::memcpy(&machine, ident + EI_NIDENT + 2, 2);
  bool little = std::endian::native == std::endian::little;
  if (ident[EI_DATA] != (little ? ELFDATA2LSB : ELFDATA2MSB) || type != ET_DYN)
    return make_error("{}: not an ELF shared object of this byte order", name);
  ElfIdentity identity;
  bool is64 = ident[EI_CLASS] == ELFCLASS64;
  if (is64 && machine == kNativeMachine) identity.abi = LdCacheAbi::native;
  else if (ident[EI_CLASS] == ELFCLASS32 && machine == kCompat32Machine) identity.abi = LdCacheAbi::compat32;
  else return identity;  // another ABI: nothing more is needed from it
  auto soname = is64 ? read_soname<Elf64>(fd, file_size, name) : read_soname<Elf32>(fd, file_size, name);
  if (!soname) return soname.error();
  identity.soname = std::move(*soname);
  return identity;
}

// Opened O_PATH without following a link (the path has none left) and
// checked to be a regular file before it is opened for reading, so a device
// node or FIFO of that name is never opened.
Result<ElfIdentity> read_elf_identity_in_root(const std::string& root, const std::string& real) {
  std::string shown = join_root(root, real);
  UniqueFd path_fd(open_in_host_root(root, real, O_PATH | O_NOFOLLOW));
  if (!path_fd.valid()) return make_sys_error(-path_fd.get(), "{}: cannot open", shown);
  struct stat info {};
  if (::fstat(path_fd.get(), &info) != 0 || !S_ISREG(info.st_mode))
    return make_error("{}: not a regular file", shown);
  std::string reopen = "/proc/self/fd/" + std::to_string(path_fd.get());
  UniqueFd fd(::open(reopen.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
  if (!fd.valid()) return make_sys_error(errno, "{}: cannot open", shown);
  return read_elf_identity(fd.get(), shown);
}

}  // namespace graft
