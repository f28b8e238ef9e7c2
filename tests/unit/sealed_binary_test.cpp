// SPDX-License-Identifier: Apache-2.0
// The ldcache plugin's ldconfig method runs a sealed memfd copy of the host's
// static ldconfig (plugins/ldcache/ldconfig_method/sealed_binary.hpp): the
// copy takes no write, truncation, growth or further seal, and holds the
// host file's bytes.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE 0x0010
#endif

#include "sealed_binary.hpp"
#include "skip.hpp"

using namespace graft;

namespace {

// Debian's ldconfig is static-pie: what the ldconfig method requires.
std::string static_ldconfig() {
  for (const char* path : {"/sbin/ldconfig", "/usr/sbin/ldconfig"}) {
    struct stat st {};
    if (::lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == 0) return path;
  }
  return "";
}

}  // namespace

TEST_CASE("a sealed ldconfig copy refuses writes, truncation, growth and further seals", "[ldcache][seal]") {
  std::string path = static_ldconfig();
  GRAFT_SKIP_IF(path.empty() ? "no root-owned regular ldconfig in /sbin or /usr/sbin" : "");
  auto sealed = ldcache::seal_host_binary(path);
  REQUIRE(sealed.ok());
  int fd = sealed->get();
  int seals = ::fcntl(fd, F_GET_SEALS);
  REQUIRE(seals >= 0);
  CHECK((seals & F_SEAL_SEAL) != 0);
  CHECK((seals & F_SEAL_SHRINK) != 0);
  CHECK((seals & F_SEAL_GROW) != 0);
  CHECK((seals & (F_SEAL_WRITE | F_SEAL_FUTURE_WRITE)) != 0);
  CHECK(::pwrite(fd, "x", 1, 0) == -1);
  CHECK(errno == EPERM);
  CHECK(::ftruncate(fd, 0) == -1);
  CHECK(::ftruncate(fd, 1 << 30) == -1);
  CHECK(::fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE) == -1);
  CHECK(errno == EPERM);
}

TEST_CASE("a sealed ldconfig copy is the host file, byte for byte in size", "[ldcache][seal]") {
  std::string path = static_ldconfig();
  GRAFT_SKIP_IF(path.empty() ? "no root-owned regular ldconfig in /sbin or /usr/sbin" : "");
  auto sealed = ldcache::seal_host_binary(path);
  REQUIRE(sealed.ok());
  struct stat host {}, copy {};
  REQUIRE(::stat(path.c_str(), &host) == 0);
  REQUIRE(::fstat(sealed->get(), &copy) == 0);
  CHECK(copy.st_size == host.st_size);
  CHECK(ldcache::check_static_elf(sealed->get(), path).ok());
}

TEST_CASE("a memfd whose pages the kernel counts as pinned is still sealed against every later write",
          "[ldcache][seal]") {
  int raw = ::memfd_create("graft-seal-test", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  REQUIRE(raw >= 0);
  UniqueFd fd(raw);
  REQUIRE(::ftruncate(fd.get(), 4096) == 0);
  // A shared writable mapping makes F_SEAL_WRITE answer EBUSY, as a page
  // still referenced from another CPU's LRU batch does.
  void* mapped = ::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd.get(), 0);
  REQUIRE(mapped != MAP_FAILED);
  REQUIRE(::fcntl(fd.get(), F_ADD_SEALS, F_SEAL_WRITE) == -1);
  REQUIRE(errno == EBUSY);
  auto sealed = ldcache::seal_memfd(fd.get(), "test memfd");
  ::munmap(mapped, 4096);
  INFO((sealed.ok() ? std::string() : sealed.error().message));
  REQUIRE(sealed.ok());
  CHECK((::fcntl(fd.get(), F_GET_SEALS) & F_SEAL_FUTURE_WRITE) != 0);
  CHECK(::pwrite(fd.get(), "x", 1, 0) == -1);
  CHECK(::ftruncate(fd.get(), 0) == -1);
}
