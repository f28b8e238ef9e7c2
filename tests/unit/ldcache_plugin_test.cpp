// The ldcache plugin, loaded from the build tree and driven through
// LoadedPlugin::prepare/apply against container roots built here. Needs root
// (chroot, a mount namespace, capabilities to drop); skipped otherwise. The
// confinement itself is checked by tiny static x86-64 probes written byte by
// byte below, standing in for ldconfig.
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
#include "inventory/ldcache.hpp"
#include "plugins/plugin_loader.hpp"
#include "run_command.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using namespace graft;
using namespace graft::fixture;

namespace {

constexpr const char* kHostLdconfig = "/sbin/ldconfig";
constexpr const char* kLibFile = "libcuda.so.560.35.03";  // fake_driver_version()
constexpr const char* kSoname = "libcuda.so.1";

// Why this machine cannot run these tests, or "".
std::string cannot_run() {
  if (::geteuid() != 0) return "needs root (chroot, a mount namespace, capabilities to drop)";
  return {};
}

// Why the host's ldconfig cannot serve, or "".
std::string no_static_ldconfig() {
  if (!cannot_run().empty()) return cannot_run();
  if (::access(kHostLdconfig, X_OK) != 0) return std::string(kHostLdconfig) + " is missing";
  return {};
}

std::string no_probes() {
  if (!cannot_run().empty()) return cannot_run();
#if defined(__x86_64__)
  return {};
#else
  return "the probe executables are x86-64 machine code";
#endif
}

#define SKIP_UNLESS(reason_expr)                      \
  do {                                                \
    std::string reason_ = (reason_expr);              \
    if (!reason_.empty()) {                           \
      WARN("skipped: " << reason_);                   \
      return;                                         \
    }                                                 \
  } while (false)

// One fake driver library, built once by the fixture.
const std::string& stub_library() {
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
  ApplyTarget target(int uid = 0) {
    if (fd < 0) fd = ::open(dir.path().c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    REQUIRE(fd >= 0);
    return ApplyTarget{.container_id = "c-ldcache", .rootfs_fd = fd, .rootfs = dir.path(),
                       .uid = uid, .gid = uid};
  }
};

Action ldcache_action() {
  return Action{.kind = ActionKind::ldcache_update, .plugin = "ldcache",
                .target = "/etc/ld.so.cache", .paths = {FakeHost::lib_dir()}};
}

std::unique_ptr<LoadedPlugin> load(const std::string& config = "{}") {
  auto loaded = load_plugin(GRAFT_BUILD_PLUGIN_DIR, "ldcache", config);
  if (!loaded.ok()) FAIL(loaded.error().message);
  return std::move(*loaded);
}

// prepare in "the host's namespace" (no root yet), then apply into `rootfs`.
Status prepare_and_apply(LoadedPlugin& plugin, Rootfs& rootfs, int uid = 0) {
  Action action = ldcache_action();
  if (auto prepared = plugin.prepare(action, 7, ApplyTarget{.container_id = "c-ldcache"});
      !prepared.ok())
    return prepared;
  return plugin.apply(action, 7, rootfs.target(uid));
}

std::string json_config(const std::string& ldconfig, int timeout_ms = 10000) {
  return "{\"ldconfig\": \"" + ldconfig + "\", \"timeout_ms\": " + std::to_string(timeout_ms) + "}";
}

// The soname's entry in a cache file, or "" when it is not listed.
std::string cached_path(const std::string& cache, const std::string& soname) {
  auto entries = read_ldcache(cache);
  REQUIRE(entries.ok());
  for (const auto& entry : *entries)
    if (entry.key == soname) return entry.value;
  return {};
}

// A static x86-64 executable: one PT_LOAD holding the headers and `code`.
void write_probe(const std::string& path, const std::vector<unsigned char>& code) {
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

}  // namespace

TEST_CASE("The ldcache plugin writes a container ld.so.cache that lists the injected library",
          "[plugins][ldcache]") {
  SKIP_UNLESS(no_static_ldconfig());
  Rootfs rootfs;
  auto plugin = load();
  auto applied = prepare_and_apply(*plugin, rootfs);
  REQUIRE(applied.ok());
  CHECK(cached_path(rootfs.path("etc/ld.so.cache"), kSoname) ==
        FakeHost::lib_dir() + "/" + kSoname);
  // ldconfig made the soname link the cache points at, inside the root.
  CHECK(fs::read_symlink(rootfs.lib_dir() + "/" + kSoname) == kLibFile);
  // And the host's own `ldconfig -p` reads the file as a valid cache.
  auto listing = testing::run_command(
      {kHostLdconfig, "-p", "-C", rootfs.path("etc/ld.so.cache")});
  CHECK(listing.exit_code == 0);
  CHECK_THAT(listing.out, Catch::Contains(std::string(kSoname) + " (libc6,") &&
                              Catch::Contains(FakeHost::lib_dir() + "/" + kSoname));
}

TEST_CASE("ldconfig never sees what lies under the root's /proc and /sys (masked)",
          "[plugins][ldcache]") {
  SKIP_UNLESS(no_static_ldconfig());
  Rootfs rootfs;
  copy_file(stub_library(), rootfs.path("proc/lib/libcuda.so.2"), 0644);
  copy_file(stub_library(), rootfs.path("sys/lib/libcuda.so.3"), 0644);
  write_file(rootfs.path("etc/ld.so.conf"), "/proc/lib\n/sys/lib\n");
  auto plugin = load();
  REQUIRE(prepare_and_apply(*plugin, rootfs).ok());
  auto entries = read_ldcache(rootfs.path("etc/ld.so.cache"));
  REQUIRE(entries.ok());
  for (const auto& entry : *entries) {
    CHECK_THAT(entry.value, !Catch::StartsWith("/proc/") && !Catch::StartsWith("/sys/"));
  }
  CHECK(cached_path(rootfs.path("etc/ld.so.cache"), kSoname) != "");
  // The masks lived in the child's own mount namespace: nothing is left here.
  CHECK(fs::exists(rootfs.path("proc/lib/libcuda.so.2")));
}

TEST_CASE("The ldcache plugin creates a missing /etc inside the container root",
          "[plugins][ldcache]") {
  SKIP_UNLESS(no_static_ldconfig());
  Rootfs rootfs(/*with_etc=*/false);
  auto plugin = load();
  REQUIRE(prepare_and_apply(*plugin, rootfs).ok());
  struct stat st {};
  REQUIRE(::lstat(rootfs.path("etc").c_str(), &st) == 0);
  CHECK(S_ISDIR(st.st_mode));
  CHECK(cached_path(rootfs.path("etc/ld.so.cache"), kSoname) != "");
}

TEST_CASE("A rootless container's cache is written as the rootfs owner, /etc created for it",
          "[plugins][ldcache]") {
  SKIP_UNLESS(no_static_ldconfig());
  Rootfs rootfs(/*with_etc=*/false);
  for (const auto& entry : fs::recursive_directory_iterator(rootfs.dir.path()))
    REQUIRE(::lchown(entry.path().c_str(), 1000, 1000) == 0);
  REQUIRE(::chown(rootfs.dir.path().c_str(), 1000, 1000) == 0);
  auto plugin = load();
  auto applied = prepare_and_apply(*plugin, rootfs, /*uid=*/1000);
  REQUIRE(applied.ok());
  struct stat etc {}, cache {};
  REQUIRE(::lstat(rootfs.path("etc").c_str(), &etc) == 0);
  REQUIRE(::lstat(rootfs.path("etc/ld.so.cache").c_str(), &cache) == 0);
  CHECK(etc.st_uid == 1000);
  CHECK(cache.st_uid == 1000);
  CHECK(cached_path(rootfs.path("etc/ld.so.cache"), kSoname) != "");
}

TEST_CASE("An /etc that is a symlink leading out of the container root is refused",
          "[plugins][ldcache]") {
  SKIP_UNLESS(no_static_ldconfig());
  TempDir host_etc("graft-ldcache-host-etc-");
  Rootfs rootfs(/*with_etc=*/false);
  make_symlink(host_etc.path(), rootfs.path("etc"));
  auto plugin = load();
  auto applied = prepare_and_apply(*plugin, rootfs);
  REQUIRE_FALSE(applied.ok());
  CHECK_THAT(applied.error().message,
             Catch::Contains("creating /etc in " + rootfs.dir.path()) &&
                 Catch::Contains("does not resolve inside the root"));
  CHECK(fs::is_empty(host_etc.path()));
}

TEST_CASE("A cache file that is a symlink out of the root is replaced inside it, not followed",
          "[plugins][ldcache]") {
  SKIP_UNLESS(no_static_ldconfig());
  TempDir host_dir("graft-ldcache-host-");
  write_file(host_dir.path() + "/ld.so.cache", "host file\n");
  Rootfs rootfs;
  make_symlink(host_dir.path() + "/ld.so.cache", rootfs.path("etc/ld.so.cache"));
  auto plugin = load();
  REQUIRE(prepare_and_apply(*plugin, rootfs).ok());
  CHECK_FALSE(fs::is_symlink(rootfs.path("etc/ld.so.cache")));
  CHECK(cached_path(rootfs.path("etc/ld.so.cache"), kSoname) != "");
  std::ifstream host_file(host_dir.path() + "/ld.so.cache");
  std::string line;
  std::getline(host_file, line);
  CHECK(line == "host file");
  CHECK(fs::directory_iterator(host_dir.path())->path().filename() == "ld.so.cache");
}

TEST_CASE("The image's own /sbin/ldconfig is never executed", "[plugins][ldcache]") {
  SKIP_UNLESS(no_static_ldconfig());
  if (::access("/bin/busybox", X_OK) != 0 || ::access("/usr/sbin/chroot", X_OK) != 0) {
    WARN("skipped: needs /bin/busybox (static) and /usr/sbin/chroot");
    return;
  }
  // The image: a working /bin/sh (static busybox) and an ldconfig script
  // that leaves a marker wherever it runs.
  Rootfs rootfs;
  copy_file("/bin/busybox", rootfs.path("bin/sh"));
  write_file(rootfs.path("sbin/ldconfig"), "#!/bin/sh\necho ran > /marker\n", 0755);
  // The trap works: run the way a careless runtime would, it springs.
  REQUIRE(testing::run_command({"/usr/sbin/chroot", rootfs.dir.path(), "/sbin/ldconfig"})
              .exit_code == 0);
  REQUIRE(fs::exists(rootfs.path("marker")));
  fs::remove(rootfs.path("marker"));

  auto plugin = load();
  REQUIRE(prepare_and_apply(*plugin, rootfs).ok());
  CHECK_FALSE(fs::exists(rootfs.path("marker")));
  CHECK(cached_path(rootfs.path("etc/ld.so.cache"), kSoname) != "");
}

TEST_CASE("The confined child gets no environment, no capabilities, no_new_privs and no fds, "
          "even with LD_PRELOAD and friends set in graft's environment",
          "[plugins][ldcache]") {
  SKIP_UNLESS(no_probes());
  TempDir bin("graft-ldcache-bin-");
  write_probe(bin.path() + "/audit", kAuditProbe);
  ScopedEnv env({{"LD_PRELOAD", "/marker.so"}, {"LD_LIBRARY_PATH", "/tmp"},
                 {"LD_AUDIT", "/marker.so"}, {"GCONV_PATH", "/tmp"}, {"PATH", "/tmp"}});
  // An fd graft holds without O_CLOEXEC must not reach the child either.
  int leaked = ::open("/", O_RDONLY | O_DIRECTORY);
  REQUIRE(leaked >= 0);
  Rootfs rootfs;
  auto plugin = load(json_config(bin.path() + "/audit"));
  auto applied = prepare_and_apply(*plugin, rootfs);
  ::close(leaked);
  // Bits of a failure's exit status: 1 env, 2 caps, 4 bounding set,
  // 8 no_new_privs unset, 16 an open fd.
  if (!applied.ok()) FAIL(applied.error().message);
}

TEST_CASE("A dynamically linked ldconfig is refused because it would load the image's ld.so",
          "[plugins][ldcache]") {
  SKIP_UNLESS(cannot_run());
  auto plugin = load(json_config("/bin/true"));
  Rootfs rootfs;
  auto applied = prepare_and_apply(*plugin, rootfs);
  REQUIRE_FALSE(applied.ok());
  CHECK_THAT(applied.error().message,
             Catch::Contains("ldcache_update /etc/ld.so.cache: ldconfig: /bin/true: dynamically "
                             "linked") &&
                 Catch::Contains("a static ldconfig is required"));
}

TEST_CASE("An ldconfig that someone other than root could have changed is refused",
          "[plugins][ldcache]") {
  SKIP_UNLESS(no_static_ldconfig());
  TempDir bin("graft-ldcache-bin-");
  std::string copy = bin.path() + "/ldconfig";
  copy_file(kHostLdconfig, copy, 0755);
  Rootfs rootfs;
  SECTION("group-writable") {
    REQUIRE(::chmod(copy.c_str(), 0775) == 0);
    auto applied = prepare_and_apply(*load(json_config(copy)), rootfs);
    REQUIRE_FALSE(applied.ok());
    CHECK_THAT(applied.error().message,
               Catch::EndsWith(copy + ": writable by group or others (mode 0775)"));
  }
  SECTION("owned by another user") {
    REQUIRE(::chown(copy.c_str(), 1000, 0) == 0);
    auto applied = prepare_and_apply(*load(json_config(copy)), rootfs);
    REQUIRE_FALSE(applied.ok());
    CHECK_THAT(applied.error().message, Catch::EndsWith(copy + ": owned by uid 1000, not root"));
  }
  SECTION("a symlink") {
    make_symlink(kHostLdconfig, bin.path() + "/link");
    auto applied = prepare_and_apply(*load(json_config(bin.path() + "/link")), rootfs);
    REQUIRE_FALSE(applied.ok());
    CHECK_THAT(applied.error().message, Catch::Contains("Too many levels of symbolic links"));
  }
  SECTION("a script") {
    write_file(copy, "#!/bin/sh\nexit 0\n", 0755);
    auto applied = prepare_and_apply(*load(json_config(copy)), rootfs);
    REQUIRE_FALSE(applied.ok());
    CHECK_THAT(applied.error().message,
               Catch::EndsWith(copy + ": not an ELF executable (a script would run an "
                                      "interpreter from the container image)"));
  }
  CHECK_FALSE(fs::exists(rootfs.path("etc/ld.so.cache")));
}

TEST_CASE("A hung ldconfig is killed at the timeout", "[plugins][ldcache]") {
  SKIP_UNLESS(no_probes());
  TempDir bin("graft-ldcache-bin-");
  write_probe(bin.path() + "/hang", kHangProbe);
  Rootfs rootfs;
  auto plugin = load(json_config(bin.path() + "/hang", 300));
  auto started = std::chrono::steady_clock::now();
  auto applied = prepare_and_apply(*plugin, rootfs);
  auto took = std::chrono::steady_clock::now() - started;
  REQUIRE_FALSE(applied.ok());
  CHECK_THAT(applied.error().message,
             Catch::EndsWith("ldconfig in container root " + rootfs.dir.path() +
                             " did not finish within 300 ms and was killed: no error output"));
  CHECK(took < std::chrono::seconds(5));
}

TEST_CASE("A failing ldconfig is reported with the root, its exit status and its first stderr line",
          "[plugins][ldcache]") {
  SKIP_UNLESS(no_probes());
  TempDir bin("graft-ldcache-bin-");
  write_probe(bin.path() + "/fail", kFailProbe);
  Rootfs rootfs;
  auto applied = prepare_and_apply(*load(json_config(bin.path() + "/fail")), rootfs);
  REQUIRE_FALSE(applied.ok());
  CHECK_THAT(applied.error().message,
             Catch::EndsWith("ldcache_update /etc/ld.so.cache: ldconfig in container root " +
                             rootfs.dir.path() + " exited with status 3: cannot frobnicate"));
}

TEST_CASE("The running ldconfig's /proc/<pid>/exe cannot be written (a sealed memfd copy)",
          "[plugins][ldcache]") {
  SKIP_UNLESS(no_probes());
  TempDir bin("graft-ldcache-bin-");
  write_probe(bin.path() + "/hang", kHangProbe);
  Rootfs rootfs;
  auto plugin = load(json_config(bin.path() + "/hang", 1500));
  // While apply waits on the child, find it and try to write its executable.
  std::atomic<int> found{0}, wrote{0};
  std::string exe_link;
  std::thread intruder([&] {
    auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(1200);
    while (found == 0 && std::chrono::steady_clock::now() < until) {
      for (const auto& entry : fs::directory_iterator("/proc")) {
        std::error_code error;
        auto link = fs::read_symlink(entry.path() / "exe", error);
        if (error || link.string().rfind("/memfd:ldconfig", 0) != 0) continue;
        exe_link = link.string();
        found = 1;
        int fd = ::open((entry.path() / "exe").c_str(), O_WRONLY);
        if (fd >= 0) {
          wrote = ::write(fd, "x", 1) == 1 ? 1 : 0;
          ::close(fd);
        }
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  auto applied = prepare_and_apply(*plugin, rootfs);
  intruder.join();
  CHECK_FALSE(applied.ok());
  REQUIRE(found == 1);
  CHECK_THAT(exe_link, Catch::StartsWith("/memfd:ldconfig"));
  CHECK(wrote == 0);
}

TEST_CASE("The ldcache plugin refuses unknown config keys and out-of-range timeouts",
          "[plugins][ldcache]") {
  auto unknown = load_plugin(GRAFT_BUILD_PLUGIN_DIR, "ldcache", R"({"ldconfg": "/sbin/ldconfig"})");
  REQUIRE_FALSE(unknown.ok());
  CHECK_THAT(unknown.error().message, Catch::Contains("unknown key \"ldconfg\""));
  auto zero = load_plugin(GRAFT_BUILD_PLUGIN_DIR, "ldcache", R"({"timeout_ms": 0})");
  REQUIRE_FALSE(zero.ok());
  CHECK_THAT(zero.error().message, Catch::Contains("\"timeout_ms\" must be an integer"));
  auto relative = load_plugin(GRAFT_BUILD_PLUGIN_DIR, "ldcache", R"({"ldconfig": "ldconfig"})");
  REQUIRE_FALSE(relative.ok());
  CHECK_THAT(relative.error().message, Catch::Contains("must be an absolute host path"));
}
