// SPDX-License-Identifier: Apache-2.0
// read_elf_identity: what a library found by a directory scan says about
// itself (ABI, DT_SONAME), read from a file someone else may have written.
#include <catch2/catch.hpp>

#include <elf.h>
#include <fcntl.h>

#include <cstddef>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "fake_host.hpp"
#include "fixture_files.hpp"
#include "graft/base/unique_fd.hpp"
#include "inventory/elf_identity.hpp"
#include "skip.hpp"
#include "temp_dir.hpp"

using namespace graft;
using namespace graft::fixture;

namespace {

Result<ElfIdentity> elf_identity_of(const std::string& path) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  REQUIRE(fd.valid());
  return read_elf_identity(fd.get(), path);
}

std::string elf_bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string elf_written(const TempDir& dir, const std::string& bytes) {
  std::string path = dir.path() + "/libcuda.so.560.35.03";
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

const FakeHost& elf_host() {
  static FakeHost built = FakeHost::build(FakeHostSpec::with_gpus(1));
  return built;
}

std::string elf_cuda_path() { return elf_host().path(FakeHost::lib_dir() + "/libcuda.so.560.35.03"); }

}  // namespace

TEST_CASE("a driver library reads as this machine's ABI with its DT_SONAME", "[elf]") {
  auto identity = elf_identity_of(elf_cuda_path());
  REQUIRE(identity);
  CHECK(identity->abi == LdCacheAbi::native);
  CHECK(identity->soname == "libcuda.so.1");
}

TEST_CASE("a 32-bit driver library reads as the compat32 ABI with its DT_SONAME", "[elf]") {
  if (!elf_host().lib32_created()) GRAFT_SKIP("this build cannot make the 32-bit fake libraries");
  auto identity = elf_identity_of(elf_host().path(FakeHost::lib32_dir() + "/libcuda.so.560.35.03"));
  REQUIRE(identity);
  CHECK(identity->abi == LdCacheAbi::compat32);
  CHECK(identity->soname == "libcuda.so.1");
}

TEST_CASE("a file that is not ELF is refused, naming it", "[elf]") {
  TempDir dir;
  std::string path = elf_written(dir, "#!/bin/sh\necho not a library\n");
  auto identity = elf_identity_of(path);
  REQUIRE_FALSE(identity);
  CHECK(identity.error().message == path + ": not an ELF file");
}

TEST_CASE("an ELF header cut short is refused", "[elf]") {
  TempDir dir;
  std::string path = elf_written(dir, elf_bytes_of(elf_cuda_path()).substr(0, 20));
  REQUIRE_FALSE(elf_identity_of(path));
}

TEST_CASE("section headers said to lie past the end of the file are refused", "[elf]") {
  TempDir dir;
  std::string bytes = elf_bytes_of(elf_cuda_path());
  Elf64_Ehdr header{};
  REQUIRE(bytes.size() > sizeof header);
  std::memcpy(&header, bytes.data(), sizeof header);
  header.e_shoff = bytes.size() - 8;
  std::memcpy(bytes.data(), &header, sizeof header);
  std::string path = elf_written(dir, bytes);
  auto identity = elf_identity_of(path);
  REQUIRE_FALSE(identity);
  CHECK(identity.error().message == path + ": ELF section headers outside the file");
}

TEST_CASE("a section count beyond any real object is refused", "[elf]") {
  TempDir dir;
  std::string bytes = elf_bytes_of(elf_cuda_path());
  Elf64_Ehdr header{};
  std::memcpy(&header, bytes.data(), sizeof header);
  header.e_shentsize = 1;
  std::memcpy(bytes.data(), &header, sizeof header);
  std::string path = elf_written(dir, bytes);
  auto identity = elf_identity_of(path);
  REQUIRE_FALSE(identity);
  CHECK(identity.error().message == path + ": bad ELF section header table");
}
