// The cgroup plugin, loaded from the build tree and driven through
// prepare/apply/finish against a real child process in a fresh cgroup: a
// device the plan grants opens (ENXIO: major 195 has no driver here, so the
// cgroup check passed), one it does not grant is refused (EPERM), and the
// runtime's own rule (/dev/null) survives. Needs root; cgroup v2 cases run
// in a private mount namespace on their own cgroup2 and bpf mounts.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <linux/bpf.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "plugins/plugin_loader.hpp"

namespace fs = std::filesystem;
using namespace graft;

namespace {

// --- the process whose device access is checked ------------------------------

// A forked child that opens paths on request and reports errno (0: opened).
// The child is created before it is moved into a cgroup, as a runtime does.
class Probe {
 public:
  Probe() {
    int down[2], up[2];
    REQUIRE(::pipe2(down, O_CLOEXEC) == 0);
    REQUIRE(::pipe2(up, O_CLOEXEC) == 0);
    pid_ = ::fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      ::close(down[1]);
      ::close(up[0]);
      serve(down[0], up[1]);
      ::_exit(0);
    }
    ::close(down[0]);
    ::close(up[1]);
    to_child_ = down[1];
    from_child_ = up[0];
  }
  ~Probe() {
    ::close(to_child_);
    ::close(from_child_);
    ::waitpid(pid_, nullptr, 0);
  }
  Probe(const Probe&) = delete;
  Probe& operator=(const Probe&) = delete;

  int pid() const { return pid_; }

  int open_errno(const std::string& path, int flags = O_RDWR) {
    std::string request = std::to_string(flags) + " " + path + "\n";
    REQUIRE(::write(to_child_, request.data(), request.size()) ==
            static_cast<ssize_t>(request.size()));
    int result = -1;
    REQUIRE(::read(from_child_, &result, sizeof result) == sizeof result);
    return result;
  }

 private:
  // Only async-signal-safe calls: the child of a fork.
  static void serve(int in, int out) {
    char line[4096];
    size_t used = 0;
    char c;
    while (::read(in, &c, 1) == 1) {
      if (c != '\n') {
        if (used + 1 < sizeof line) line[used++] = c;
        continue;
      }
      line[used] = '\0';
      used = 0;
      char* space = std::strchr(line, ' ');
      if (space == nullptr) continue;
      *space = '\0';
      int flags = std::atoi(line);
      int fd = ::open(space + 1, flags | O_CLOEXEC);
      int result = fd < 0 ? errno : 0;
      if (fd >= 0) ::close(fd);
      if (::write(out, &result, sizeof result) != sizeof result) return;
    }
  }

  pid_t pid_ = -1;
  int to_child_ = -1, from_child_ = -1;
};

// --- files, nodes, cgroups ------------------------------------------------

bool write_text(const fs::path& path, const std::string& text) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  return ok;
}

struct TempDir {
  fs::path path;
  TempDir() {
    std::string templ = (fs::temp_directory_path() / "graft-cgroup-XXXXXX").string();
    REQUIRE(::mkdtemp(templ.data()) != nullptr);
    path = templ;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

// Character nodes with no driver behind them: n1 = c 195:1, n2 = c 195:2,
// n3 = c 195:3. An open the cgroup allows fails with ENXIO, a denied one EPERM.
struct Nodes {
  TempDir dir;
  fs::path n1 = dir.path / "n1", n2 = dir.path / "n2", n3 = dir.path / "n3";
  Nodes() {
    REQUIRE(::mknod(n1.c_str(), S_IFCHR | 0666, makedev(195, 1)) == 0);
    REQUIRE(::mknod(n2.c_str(), S_IFCHR | 0666, makedev(195, 2)) == 0);
    REQUIRE(::mknod(n3.c_str(), S_IFCHR | 0666, makedev(195, 3)) == 0);
  }
};

// A child cgroup, removed after its processes are gone (declare it before
// the Probe that is moved into it, so the Probe is reaped first).
struct ChildCgroup {
  fs::path path;
  fs::path parent;
  explicit ChildCgroup(const fs::path& under) : parent(under) {
    path = under / ("graft-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
    REQUIRE(::mkdir(path.c_str(), 0755) == 0);
  }
  ~ChildCgroup() {
    for (int attempt = 0; attempt < 50 && ::rmdir(path.c_str()) != 0 && errno == EBUSY; ++attempt)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  void add(int pid) const { REQUIRE(write_text(path / "cgroup.procs", std::to_string(pid))); }
  static int& counter() {
    static int n = 0;
    return n;
  }
};

Action allow(unsigned major, unsigned minor, std::string access = "rw") {
  return Action{.kind = ActionKind::cgroup_allow,
                .plugin = "cgroup",
                .target = "c " + std::to_string(major) + ":" + std::to_string(minor),
                .device_type = 'c',
                .major = major,
                .minor = minor,
                .access = std::move(access)};
}

std::unique_ptr<LoadedPlugin> load_cgroup_plugin(const std::string& config) {
  auto loaded = load_plugin(GRAFT_BUILD_PLUGIN_DIR, "cgroup", config);
  INFO((loaded.ok() ? std::string() : loaded.error().message));
  REQUIRE(loaded.ok());
  return std::move(*loaded);
}

// Every phase for `actions`, as the host runs them.
Status run_phases(LoadedPlugin& plugin, const std::vector<Action>& actions, int pid) {
  ApplyTarget target{.pid = pid};
  for (std::uint32_t i = 0; i < actions.size(); ++i)
    if (auto prepared = plugin.prepare(actions[i], i, target); !prepared.ok()) return prepared;
  for (std::uint32_t i = 0; i < actions.size(); ++i)
    if (auto applied = plugin.apply(actions[i], i, target); !applied.ok()) return applied;
  return plugin.finish(target);
}

// The mount point of the cgroup v1 hierarchy with the devices controller.
std::string devices_v1_mount() {
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  while (std::getline(in, line)) {
    auto dash = line.find(" - cgroup ");
    if (dash == std::string::npos) continue;
    std::istringstream super(line.substr(dash + 10));
    std::string source, options;
    super >> source >> options;
    if (("," + options + ",").find(",devices,") == std::string::npos) continue;
    std::istringstream fields(line);
    std::string id, parent, numbers, root, mount_point;
    fields >> id >> parent >> numbers >> root >> mount_point;
    if (root == "/") return mount_point;
  }
  return "";
}

// --- raw BPF for the "runtime" side ----------------------------------------

long sys_bpf(int command, bpf_attr& attr) {
  return ::syscall(__NR_bpf, command, &attr, sizeof attr);
}

bpf_insn insn(std::uint8_t code, std::uint8_t dst, std::uint8_t src, std::int16_t off,
              std::int32_t imm) {
  bpf_insn i{};
  i.code = code;
  i.dst_reg = dst;
  i.src_reg = src;
  i.off = off;
  i.imm = imm;
  return i;
}

int load_device_program(const std::vector<bpf_insn>& program) {
  bpf_attr attr{};
  attr.prog_type = BPF_PROG_TYPE_CGROUP_DEVICE;
  attr.insns = reinterpret_cast<std::uintptr_t>(program.data());
  attr.insn_cnt = static_cast<std::uint32_t>(program.size());
  attr.license = reinterpret_cast<std::uintptr_t>("GPL");
  return static_cast<int>(sys_bpf(BPF_PROG_LOAD, attr));
}

// What runc would attach for a container that may use only /dev/null:
// allow c 1:3 (any access), deny everything else.
int load_runtime_program() {
  return load_device_program({
      insn(BPF_LDX | BPF_W | BPF_MEM, 2, 1, 0, 0),       // r2 = access_type
      insn(BPF_ALU | BPF_AND | BPF_K, 2, 0, 0, 0xffff),  // r2 = type
      insn(BPF_LDX | BPF_W | BPF_MEM, 4, 1, 4, 0),       // r4 = major
      insn(BPF_LDX | BPF_W | BPF_MEM, 5, 1, 8, 0),       // r5 = minor
      insn(BPF_JMP | BPF_JNE | BPF_K, 2, 0, 4, BPF_DEVCG_DEV_CHAR),
      insn(BPF_JMP | BPF_JNE | BPF_K, 4, 0, 3, 1),
      insn(BPF_JMP | BPF_JNE | BPF_K, 5, 0, 2, 3),
      insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 1),
      insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
      insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
      insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
  });
}

// Whether this process may load a device program at all.
bool bpf_available() {
  int fd = load_device_program({insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 1),
                                insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)});
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

void attach_multi(const fs::path& cgroup, int prog_fd, std::uint32_t flags = BPF_F_ALLOW_MULTI) {
  int cgroup_fd = ::open(cgroup.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  REQUIRE(cgroup_fd >= 0);
  bpf_attr attr{};
  attr.target_fd = static_cast<std::uint32_t>(cgroup_fd);
  attr.attach_bpf_fd = static_cast<std::uint32_t>(prog_fd);
  attr.attach_type = BPF_CGROUP_DEVICE;
  attr.attach_flags = flags;
  long attached = sys_bpf(BPF_PROG_ATTACH, attr);
  int error = errno;
  ::close(cgroup_fd);
  INFO(std::strerror(error));
  REQUIRE(attached == 0);
}

std::vector<std::uint32_t> attached_ids(const fs::path& cgroup) {
  int cgroup_fd = ::open(cgroup.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  REQUIRE(cgroup_fd >= 0);
  std::vector<std::uint32_t> ids(16);
  bpf_attr attr{};
  attr.query.target_fd = static_cast<std::uint32_t>(cgroup_fd);
  attr.query.attach_type = BPF_CGROUP_DEVICE;
  attr.query.prog_ids = reinterpret_cast<std::uintptr_t>(ids.data());
  attr.query.prog_cnt = static_cast<std::uint32_t>(ids.size());
  REQUIRE(sys_bpf(BPF_PROG_QUERY, attr) == 0);
  ::close(cgroup_fd);
  ids.resize(attr.query.prog_cnt);
  return ids;
}

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ignored;
  for (const auto& entry : fs::directory_iterator(dir, ignored))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// A private mount namespace with its own cgroup2 and bpf mounts; the test
// process returns to its original namespace afterwards.
class PrivateV2 {
 public:
  PrivateV2() {
    original_ns_ = ::open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
    REQUIRE(original_ns_ >= 0);
    REQUIRE(::unshare(CLONE_NEWNS) == 0);
    REQUIRE(::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0);
    cgroup2 = dir.path / "cgroup";
    bpffs = dir.path / "bpf";
    fs::create_directories(cgroup2);
    fs::create_directories(bpffs);
    mounted_cgroup2_ = ::mount("cgroup2", cgroup2.c_str(), "cgroup2", 0, nullptr) == 0;
    mounted_bpffs_ = ::mount("bpf", bpffs.c_str(), "bpf", 0, nullptr) == 0;
  }
  ~PrivateV2() {
    if (mounted_bpffs_) ::umount2(bpffs.c_str(), MNT_DETACH);
    if (mounted_cgroup2_) ::umount2(cgroup2.c_str(), MNT_DETACH);
    ::setns(original_ns_, CLONE_NEWNS);
    ::close(original_ns_);
  }
  bool ready() const { return mounted_cgroup2_ && mounted_bpffs_; }
  std::string config() const {
    return R"({"cgroup_root": ")" + cgroup2.string() + R"(", "bpffs": ")" + bpffs.string() +
           R"("})";
  }

  TempDir dir;
  fs::path cgroup2, bpffs;

 private:
  int original_ns_ = -1;
  bool mounted_cgroup2_ = false, mounted_bpffs_ = false;
};

// Why the v2 cases cannot run here, or "" when they can.
std::string v2_skip_reason() {
  if (::geteuid() != 0) return "needs root (cgroups, mknod, bpf)";
  if (!bpf_available()) return std::string("bpf() unavailable: ") + std::strerror(errno);
  return "";
}

// --- what each case starts from -------------------------------------------

// The v1 devices hierarchy's mount point, or "" after a WARN "skipped: ..."
// where a v1 case cannot run: not root (`needs` says for what) or no hierarchy.
std::string devices_v1_or_skip(const std::string& needs) {
  if (::geteuid() != 0) {
    WARN("skipped: needs root (" + needs + ")");
    return "";
  }
  std::string devices = devices_v1_mount();
  if (devices.empty()) WARN("skipped: no cgroup v1 devices hierarchy mounted");
  return devices;
}

// PrivateV2 mounts, or nullptr after a WARN "skipped: ..." where a v2 case
// cannot run.
std::unique_ptr<PrivateV2> private_v2_or_skip() {
  if (auto reason = v2_skip_reason(); !reason.empty()) {
    WARN("skipped: " + reason);
    return nullptr;
  }
  auto v2 = std::make_unique<PrivateV2>();
  if (!v2->ready()) {
    WARN("skipped: cannot mount cgroup2 and bpf filesystems here");
    return nullptr;
  }
  return v2;
}

// Attaches the runtime's program to `cgroup`: as runc does
// (BPF_F_ALLOW_MULTI) or, with flags 0, as crun does (a single program).
void attach_runtime_program(const fs::path& cgroup, std::uint32_t flags = BPF_F_ALLOW_MULTI) {
  int runtime_program = load_runtime_program();
  REQUIRE(runtime_program >= 0);
  attach_multi(cgroup, runtime_program, flags);
  ::close(runtime_program);
}

enum class RuntimeProgram { none, multi, single };

// A v2 container: private mounts, the driverless nodes, a child cgroup with
// the runtime's device program (if any) and a Probe moved into it. Members
// go in reverse: the Probe is reaped before its cgroup is removed.
struct V2Container {
  std::unique_ptr<PrivateV2> v2;
  Nodes nodes;
  ChildCgroup cgroup{v2->cgroup2};
  Probe probe;

  V2Container(std::unique_ptr<PrivateV2> mounts, RuntimeProgram runtime) : v2(std::move(mounts)) {
    if (runtime != RuntimeProgram::none)
      attach_runtime_program(cgroup.path, runtime == RuntimeProgram::multi ? BPF_F_ALLOW_MULTI : 0);
    cgroup.add(probe.pid());
  }
};

// A V2Container, or nullptr after a WARN "skipped: ..." (see private_v2_or_skip).
std::unique_ptr<V2Container> v2_container_or_skip(RuntimeProgram runtime) {
  auto v2 = private_v2_or_skip();
  if (!v2) return nullptr;
  return std::make_unique<V2Container>(std::move(v2), runtime);
}

}  // namespace

TEST_CASE("The cgroup plugin refuses unknown config keys and relative paths", "[plugins][cgroup]") {
  auto unknown = load_plugin(GRAFT_BUILD_PLUGIN_DIR, "cgroup", R"({"cgroups": "/x"})");
  REQUIRE_FALSE(unknown.ok());
  CHECK_THAT(unknown.error().message, Catch::Contains("unknown config key 'cgroups'"));
  auto relative = load_plugin(GRAFT_BUILD_PLUGIN_DIR, "cgroup", R"({"cgroup_root": "sys"})");
  REQUIRE_FALSE(relative.ok());
  CHECK_THAT(relative.error().message, Catch::Contains("must be an absolute path"));
}

TEST_CASE("A cgroup rule with a bad type, access or number is refused in prepare",
          "[plugins][cgroup]") {
  auto plugin = load_cgroup_plugin("{}");
  ApplyTarget target{.pid = ::getpid()};
  Action block_x = allow(195, 1);
  block_x.device_type = 'x';
  CHECK_THAT(plugin->prepare(block_x, 0, target).error().message,
             Catch::Contains("device type must be 'c' or 'b'"));
  CHECK_THAT(plugin->prepare(allow(195, 1, "rx"), 0, target).error().message,
             Catch::Contains("access 'rx' is not a set of r, w, m"));
  CHECK_THAT(plugin->prepare(allow(195, 1, "rr"), 0, target).error().message,
             Catch::Contains("access 'rr'"));
  CHECK_THAT(plugin->prepare(allow(4096, 1), 0, target).error().message,
             Catch::Contains("out of range"));
  CHECK_THAT(plugin->prepare(allow(195, 1), 0, ApplyTarget{}).error().message,
             Catch::Contains("no container pid"));
}

TEST_CASE("On cgroup v1 a granted device opens, others stay denied and the runtime's rules remain",
          "[plugins][cgroup]") {
  const std::string devices = devices_v1_or_skip("cgroups, mknod");
  if (devices.empty()) return;
  // cgroup_root is the directory holding the v1 hierarchies (a tmpfs):
  // statfs says v1 there, as it does to runc.
  const std::string root = fs::path(devices).parent_path().string();
  Nodes nodes;
  ChildCgroup cgroup(devices);
  // Like a runtime: deny everything, then allow /dev/null.
  REQUIRE(write_text(cgroup.path / "devices.deny", "a"));
  REQUIRE(write_text(cgroup.path / "devices.allow", "c 1:3 rwm"));
  Probe probe;
  cgroup.add(probe.pid());
  REQUIRE(probe.open_errno(nodes.n1) == EPERM);

  auto plugin = load_cgroup_plugin(R"({"cgroup_root": ")" + root + R"("})");
  auto status = run_phases(*plugin, {allow(195, 1), allow(195, 3, "r")}, probe.pid());
  INFO((status.ok() ? std::string() : status.error().message));
  REQUIRE(status.ok());

  CHECK(probe.open_errno(nodes.n1) == ENXIO);
  CHECK(probe.open_errno(nodes.n2) == EPERM);
  CHECK(probe.open_errno(nodes.n3, O_RDONLY) == ENXIO);
  CHECK(probe.open_errno(nodes.n3, O_RDWR) == EPERM);
  CHECK(probe.open_errno("/dev/null") == 0);
  std::ifstream list(cgroup.path / "devices.list");
  std::stringstream text;
  text << list.rdbuf();
  CHECK_THAT(text.str(), Catch::Contains("c 195:1 rw") && Catch::Contains("c 1:3 rwm"));
}

TEST_CASE("On cgroup v1 a write the kernel refuses names the cgroup and the rule",
          "[plugins][cgroup]") {
  const std::string devices = devices_v1_or_skip("cgroups");
  if (devices.empty()) return;
  // A child cgroup may not allow more than its parent: parent denies all.
  ChildCgroup parent(devices);
  REQUIRE(write_text(parent.path / "devices.deny", "a"));
  ChildCgroup cgroup(parent.path);
  Probe probe;
  cgroup.add(probe.pid());
  auto plugin = load_cgroup_plugin(
      R"({"cgroup_root": ")" + fs::path(devices).parent_path().string() + R"("})");
  auto status = run_phases(*plugin, {allow(195, 1)}, probe.pid());
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message,
             Catch::Contains(cgroup.path.string()) && Catch::Contains("'c 195:1 rw'") &&
                 Catch::Contains("devices.allow"));
}

TEST_CASE("On cgroup v2 the runtime's device program is wrapped: granted devices open, its rules "
          "stay, and they outlive the plugin",
          "[plugins][cgroup]") {
  auto container = v2_container_or_skip(RuntimeProgram::multi);
  if (!container) return;
  auto& [v2, nodes, cgroup, probe] = *container;
  const auto runtime_ids = attached_ids(cgroup.path);
  REQUIRE(runtime_ids.size() == 1);
  REQUIRE(probe.open_errno(nodes.n1) == EPERM);
  REQUIRE(probe.open_errno("/dev/null") == 0);

  auto plugin = load_cgroup_plugin(v2->config());
  auto status = run_phases(*plugin, {allow(195, 1), allow(195, 3, "r")}, probe.pid());
  INFO((status.ok() ? std::string() : status.error().message));
  REQUIRE(status.ok());

  auto check_access = [&] {
    CHECK(probe.open_errno(nodes.n1) == ENXIO);
    CHECK(probe.open_errno(nodes.n2) == EPERM);
    CHECK(probe.open_errno(nodes.n3, O_RDONLY) == ENXIO);
    CHECK(probe.open_errno(nodes.n3, O_RDWR) == EPERM);
    CHECK(probe.open_errno("/dev/null") == 0);
  };
  check_access();
  // One program still attached, and it is not the runtime's any more.
  const auto ids = attached_ids(cgroup.path);
  REQUIRE(ids.size() == 1);
  CHECK(ids[0] != runtime_ids[0]);
  CHECK(names_in(v2->bpffs / "graft").size() == 1);

  // Every fd the plugin held is closed: the pin keeps the runtime's program
  // reachable (an unpinned prog array is emptied once its last fd goes).
  plugin.reset();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  check_access();
}

TEST_CASE("On cgroup v2 a cgroup without a device program gets nothing installed",
          "[plugins][cgroup]") {
  auto container = v2_container_or_skip(RuntimeProgram::none);
  if (!container) return;
  auto& [v2, nodes, cgroup, probe] = *container;
  auto plugin = load_cgroup_plugin(v2->config());
  auto status = run_phases(*plugin, {allow(195, 1)}, probe.pid());
  INFO((status.ok() ? std::string() : status.error().message));
  REQUIRE(status.ok());
  CHECK(attached_ids(cgroup.path).empty());
  CHECK(names_in(v2->bpffs / "graft").empty());
  CHECK(probe.open_errno(nodes.n1) == ENXIO);
  CHECK(probe.open_errno(nodes.n2) == ENXIO);
  CHECK(probe.open_errno("/dev/null") == 0);
}

TEST_CASE("On cgroup v2 an empty rule list leaves the runtime's program in place",
          "[plugins][cgroup]") {
  auto container = v2_container_or_skip(RuntimeProgram::multi);
  if (!container) return;
  auto& [v2, nodes, cgroup, probe] = *container;
  const auto runtime_ids = attached_ids(cgroup.path);
  auto plugin = load_cgroup_plugin(v2->config());
  auto status = run_phases(*plugin, {}, probe.pid());
  REQUIRE(status.ok());
  CHECK(attached_ids(cgroup.path) == runtime_ids);
  CHECK(names_in(v2->bpffs / "graft").empty());
  CHECK(probe.open_errno(nodes.n1) == EPERM);
  CHECK(probe.open_errno("/dev/null") == 0);
}

TEST_CASE("On cgroup v2 the pin of a removed cgroup is swept by the next install",
          "[plugins][cgroup]") {
  auto v2 = private_v2_or_skip();
  if (!v2) return;
  auto install_in = [&](ChildCgroup& cgroup) {
    attach_runtime_program(cgroup.path);
    Probe probe;
    cgroup.add(probe.pid());
    auto plugin = load_cgroup_plugin(v2->config());
    auto status = run_phases(*plugin, {allow(195, 1)}, probe.pid());
    INFO((status.ok() ? std::string() : status.error().message));
    REQUIRE(status.ok());
  };
  std::vector<std::string> first_pins;
  {
    ChildCgroup first(v2->cgroup2);
    install_in(first);
    first_pins = names_in(v2->bpffs / "graft");
    REQUIRE(first_pins.size() == 1);
  }  // the probe is reaped and the cgroup removed
  ChildCgroup second(v2->cgroup2);
  install_in(second);
  auto pins = names_in(v2->bpffs / "graft");
  REQUIRE(pins.size() == 1);
  CHECK(pins[0] != first_pins[0]);
}

TEST_CASE("On cgroup v2 a device program attached without BPF_F_ALLOW_MULTI is replaced in place",
          "[plugins][cgroup]") {
  auto container = v2_container_or_skip(RuntimeProgram::single);
  if (!container) return;
  auto& [v2, nodes, cgroup, probe] = *container;
  const auto runtime_ids = attached_ids(cgroup.path);
  REQUIRE(runtime_ids.size() == 1);

  auto plugin = load_cgroup_plugin(v2->config());
  auto status = run_phases(*plugin, {allow(195, 1)}, probe.pid());
  INFO((status.ok() ? std::string() : status.error().message));
  REQUIRE(status.ok());
  const auto ids = attached_ids(cgroup.path);
  REQUIRE(ids.size() == 1);
  CHECK(ids[0] != runtime_ids[0]);
  CHECK(probe.open_errno(nodes.n1) == ENXIO);
  CHECK(probe.open_errno(nodes.n2) == EPERM);
  CHECK(probe.open_errno("/dev/null") == 0);
}
