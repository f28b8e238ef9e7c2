// SPDX-License-Identifier: Apache-2.0
// Support for the ldcache plugin tests: container roots built in code with
// the fixture's libcuda, the plugin driven through prepare/apply, and tiny
// static x86-64 probes written byte by byte that stand in for ldconfig to
// report what the confined child can see (env, capabilities, fds).
#pragma once

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>
#include <vector>
#include "fake_host.hpp"
#include "fixture_files.hpp"
#include "graft/base/ldcache.hpp"
#include "ldcache_file.hpp"
#include "plugin_host/plugin_loader.hpp"
#include "run_command.hpp"
#include "temp_dir.hpp"
#include "skip.hpp"

namespace graft::ldcache_test {

namespace fs = std::filesystem;
using namespace graft::fixture;

constexpr const char* kHostLdconfig = "/sbin/ldconfig";
constexpr const char* kLibFile = "libcuda.so.560.35.03";  // fake_driver_version()
constexpr const char* kSoname = "libcuda.so.1";

// Why this machine cannot run these tests, or "". (Out of line: GCC 12
// inlines the message literals into the skip macro and then warns falsely.)
std::string cannot_run();
// Why the host's ldconfig cannot serve, or "".
std::string no_static_ldconfig();
// Why the byte-written x86-64 probes cannot run, or "".
std::string no_probes();

// One fake driver library, built once by the fixture.
inline const std::string& stub_library() {
  static const FakeHost host = [] {
    FakeHostSpec spec;
    spec.with_lib32 = spec.with_stray_library = spec.with_binaries = false;
    spec.with_firmware = spec.with_ipc = spec.with_config_files = false;
    spec.with_device_nodes = false;
    return FakeHost::build(spec);
  }();
  static const std::string path = host.path(FakeHost::lib_dir() + "/" + kLibFile);
  return path;
}

// A container root: the library (no soname link) in the multiarch dir, and
// /etc unless told otherwise. `fd` is the O_PATH fd graft would pass.
struct Rootfs {
  TempDir dir{"graft-ldcache-root-"};
  int fd = -1;

  explicit Rootfs(bool with_etc = true) {
    ::chmod(dir.path().c_str(), 0755);
    copy_file(stub_library(), lib_dir() + "/" + kLibFile, 0644);
    if (with_etc) make_dirs(path("etc"));
    // Where the runtime mounts proc and sysfs in a real root; the child masks them.
    make_dirs(path("proc"));
    make_dirs(path("sys"));
  }
  ~Rootfs() {
    if (fd >= 0) ::close(fd);
  }
  std::string path(std::string_view rel) const { return join(dir.path(), rel); }
  std::string lib_dir() const { return path(FakeHost::lib_dir()); }
  ApplyTarget target(std::uint32_t uid = 0) {
    if (fd < 0) fd = ::open(dir.path().c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    REQUIRE(fd >= 0);
    return ApplyTarget{.container_id = "c-ldcache", .rootfs_fd = fd, .rootfs = dir.path(),
                       .uid = uid, .gid = uid};
  }
};

// `expected`: the cache entries the plan says the new cache must list.
inline Action ldcache_action(const std::vector<std::string>& expected = {}) {
  Action action{.kind = ActionKind::ldcache_update, .plugin = "ldcache",
                .target = "/etc/ld.so.cache", .paths = {FakeHost::lib_dir()}};
  for (const auto& entry : expected) action.content += entry + "\n";
  return action;
}

// These tests drive the "ldconfig" method unless a config says otherwise;
// the default "write" method has ldcache_direct_test.cpp.
inline std::unique_ptr<LoadedPlugin> load(const std::string& config = R"({"method": "ldconfig"})") {
  auto loaded = load_plugin(GRAFT_BUILD_PLUGIN_DIR, "ldcache", config);
  if (!loaded.ok()) FAIL(loaded.error().message);
  return std::move(*loaded);
}

// prepare in "the host's namespace" (no root yet), then apply into `rootfs`.
inline Status prepare_and_apply(LoadedPlugin& plugin, Rootfs& rootfs, std::uint32_t uid = 0,
                                const Action& action = ldcache_action()) {
  if (auto prepared = plugin.prepare(action, 7, ApplyTarget{.container_id = "c-ldcache"});
      !prepared.ok())
    return prepared;
  return plugin.apply(action, 7, rootfs.target(uid));
}

inline std::string json_config(const std::string& ldconfig, int timeout_ms = 10000) {
  return "{\"method\": \"ldconfig\", \"ldconfig\": \"" + ldconfig + "\", \"timeout_ms\": " +
         std::to_string(timeout_ms) + "}";
}

// The soname's entry in a cache file, or "" when it is not listed.
inline std::string cached_path(const std::string& cache, const std::string& soname) {
  auto entries = read_ldcache_file(cache);
  REQUIRE(entries.ok());
  for (const auto& entry : *entries)
    if (entry.key == soname) return entry.value;
  return {};
}

// A static x86-64 executable: one PT_LOAD holding the headers and `code`.
inline void write_probe(const std::string& path, const std::vector<unsigned char>& code) {
  constexpr Elf64_Addr kBase = 0x400000;
  constexpr size_t kHeaders = sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr);
  Elf64_Ehdr eh{};
  std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  eh.e_type = ET_EXEC;
  eh.e_machine = EM_X86_64;
  eh.e_version = EV_CURRENT;
  eh.e_entry = kBase + kHeaders;
  eh.e_phoff = sizeof(Elf64_Ehdr);
  eh.e_ehsize = sizeof(Elf64_Ehdr);
  eh.e_phentsize = sizeof(Elf64_Phdr);
  eh.e_phnum = 1;
  Elf64_Phdr ph{};
  ph.p_type = PT_LOAD;
  ph.p_flags = PF_R | PF_X;
  ph.p_vaddr = ph.p_paddr = kBase;
  ph.p_filesz = ph.p_memsz = kHeaders + code.size();
  ph.p_align = 0x1000;
  std::string bytes(reinterpret_cast<const char*>(&eh), sizeof eh);
  bytes.append(reinterpret_cast<const char*>(&ph), sizeof ph);
  bytes.append(code.begin(), code.end());
  write_file(path, bytes, 0755);
}

// Exits with a bit set for each thing a confined child must not have:
// 1 an environment, 2 a capability (capget), 4 a bounding-set capability
// (PR_CAPBSET_READ 0..63), 8 no no_new_privs, 16 an open fd from 3 to 255.
const std::vector<unsigned char> kAuditProbe = {
    0x45, 0x31, 0xe4, 0x48, 0x8b, 0x3c, 0x24, 0x48, 0x8d, 0x74, 0xfc, 0x10, 0x48, 0x83, 0x3e,
    0x00, 0x74, 0x04, 0x41, 0x83, 0xcc, 0x01, 0x48, 0x83, 0xec, 0x40, 0xc7, 0x04, 0x24, 0x22,
    0x05, 0x08, 0x20, 0xc7, 0x44, 0x24, 0x04, 0x00, 0x00, 0x00, 0x00, 0x48, 0x89, 0xe7, 0x48,
    0x8d, 0x74, 0x24, 0x08, 0xb8, 0x7d, 0x00, 0x00, 0x00, 0x0f, 0x05, 0x48, 0x85, 0xc0, 0x75,
    0x11, 0x48, 0x8b, 0x44, 0x24, 0x08, 0x48, 0x0b, 0x44, 0x24, 0x10, 0x48, 0x0b, 0x44, 0x24,
    0x18, 0x74, 0x04, 0x41, 0x83, 0xcc, 0x02, 0x31, 0xdb, 0xbf, 0x17, 0x00, 0x00, 0x00, 0x89,
    0xde, 0x31, 0xd2, 0x45, 0x31, 0xd2, 0x45, 0x31, 0xc0, 0xb8, 0x9d, 0x00, 0x00, 0x00, 0x0f,
    0x05, 0x48, 0x83, 0xf8, 0x01, 0x75, 0x04, 0x41, 0x83, 0xcc, 0x04, 0xff, 0xc3, 0x83, 0xfb,
    0x40, 0x72, 0xd9, 0xbf, 0x27, 0x00, 0x00, 0x00, 0x31, 0xf6, 0x31, 0xd2, 0x45, 0x31, 0xd2,
    0x45, 0x31, 0xc0, 0xb8, 0x9d, 0x00, 0x00, 0x00, 0x0f, 0x05, 0x48, 0x83, 0xf8, 0x01, 0x74,
    0x04, 0x41, 0x83, 0xcc, 0x08, 0xbb, 0x03, 0x00, 0x00, 0x00, 0x89, 0xdf, 0xbe, 0x01, 0x00,
    0x00, 0x00, 0xb8, 0x48, 0x00, 0x00, 0x00, 0x0f, 0x05, 0x48, 0x85, 0xc0, 0x78, 0x04, 0x41,
    0x83, 0xcc, 0x10, 0xff, 0xc3, 0x81, 0xfb, 0x00, 0x01, 0x00, 0x00, 0x72, 0xdf, 0x44, 0x89,
    0xe7, 0xb8, 0x3c, 0x00, 0x00, 0x00, 0x0f, 0x05};

// for (;;) pause();
const std::vector<unsigned char> kHangProbe = {0xb8, 0x22, 0x00, 0x00, 0x00, 0x0f, 0x05, 0xeb, 0xf7};

// write(2, "cannot frobnicate\nsecond line\n", 30); exit(3);
const std::vector<unsigned char> kFailProbe = {
    0xbf, 0x02, 0x00, 0x00, 0x00, 0x48, 0x8d, 0x35, 0x18, 0x00, 0x00, 0x00, 0xba, 0x1e, 0x00,
    0x00, 0x00, 0xb8, 0x01, 0x00, 0x00, 0x00, 0x0f, 0x05, 0xbf, 0x03, 0x00, 0x00, 0x00, 0xb8,
    0x3c, 0x00, 0x00, 0x00, 0x0f, 0x05, 'c',  'a',  'n',  'n',  'o',  't',  ' ',  'f',  'r',
    'o',  'b',  'n',  'i',  'c',  'a',  't',  'e',  '\n', 's',  'e',  'c',  'o',  'n',  'd',
    ' ',  'l',  'i',  'n',  'e',  '\n'};

// exit(0): an "ldconfig" that writes nothing.
const std::vector<unsigned char> kNoopProbe = {0x31, 0xff, 0xb8, 0x3c, 0x00, 0x00, 0x00, 0x0f, 0x05};

// Sets variables for one scope and restores them after.
class ScopedEnv {
 public:
  explicit ScopedEnv(std::vector<std::pair<std::string, std::string>> vars) {
    for (auto& [name, value] : vars) {
      const char* old = std::getenv(name.c_str());
      saved_.emplace_back(name, old ? std::optional<std::string>(old) : std::nullopt);
      ::setenv(name.c_str(), value.c_str(), 1);
    }
  }
  ~ScopedEnv() {
    for (auto& [name, old] : saved_)
      old ? ::setenv(name.c_str(), old->c_str(), 1) : ::unsetenv(name.c_str());
  }

 private:
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

}  // namespace graft::ldcache_test
