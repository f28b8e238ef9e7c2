// SPDX-License-Identifier: Apache-2.0
// Support for the cgroup plugin tests: a probe process that reports what it
// may open, device nodes with no driver behind them, throwaway cgroups, the
// plugin driven through its phases, and for v2 a private cgroup2 + bpf
// mount with a runc-style device program attached. Tests skip (WARN and
// return) where root, the v1 devices hierarchy or bpf() is missing.
#pragma once

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
#include "plugin_host/plugin_loader.hpp"
#include "temp_dir.hpp"
#include "skip.hpp"

namespace graft::cgroup_test {

namespace fs = std::filesystem;

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

inline bool write_text(const fs::path& path, const std::string& text) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  return ok;
}

// Character nodes with no driver behind them: n1 = c 195:1, n2 = c 195:2,
// n3 = c 195:3. An open the cgroup allows fails with ENXIO, a denied one EPERM.
struct Nodes {
  fixture::TempDir dir{"graft-cgroup-"};
  fs::path n1 = dir.path() + "/n1", n2 = dir.path() + "/n2", n3 = dir.path() + "/n3";
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

inline Action allow(unsigned major, unsigned minor, std::string access = "rw") {
  return Action{.kind = ActionKind::cgroup_allow,
                .plugin = "cgroup",
                .target = "c " + std::to_string(major) + ":" + std::to_string(minor),
                .device_type = 'c',
                .major = major,
                .minor = minor,
                .access = std::move(access)};
}

inline std::unique_ptr<LoadedPlugin> load_cgroup_plugin(const std::string& config) {
  auto loaded = load_plugin(GRAFT_BUILD_PLUGIN_DIR, "cgroup", config);
  INFO((loaded.ok() ? std::string() : loaded.error().message));
  REQUIRE(loaded.ok());
  return std::move(*loaded);
}

// Every phase for `actions`, as the host runs them.
inline Status run_phases(LoadedPlugin& plugin, const std::vector<Action>& actions, int pid) {
  ApplyTarget target{.pid = pid};
  for (std::uint32_t i = 0; i < actions.size(); ++i)
    if (auto prepared = plugin.prepare(actions[i], i, target); !prepared.ok()) return prepared;
  for (std::uint32_t i = 0; i < actions.size(); ++i)
    if (auto applied = plugin.apply(actions[i], i, target); !applied.ok()) return applied;
  return plugin.finish(target);
}

// The mount point of the cgroup v1 hierarchy with the devices controller.
inline std::string devices_v1_mount() {
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

inline long sys_bpf(int command, bpf_attr& attr) {
  return ::syscall(__NR_bpf, command, &attr, sizeof attr);
}

inline bpf_insn insn(std::uint8_t code, std::uint8_t dst, std::uint8_t src, std::int16_t off,
                     std::int32_t imm) {
  bpf_insn i{};
  i.code = code;
  i.dst_reg = dst;
  i.src_reg = src;
  i.off = off;
  i.imm = imm;
  return i;
}

inline int load_device_program(const std::vector<bpf_insn>& program) {
  bpf_attr attr{};
  attr.prog_type = BPF_PROG_TYPE_CGROUP_DEVICE;
  attr.insns = reinterpret_cast<std::uintptr_t>(program.data());
  attr.insn_cnt = static_cast<std::uint32_t>(program.size());
  attr.license = reinterpret_cast<std::uintptr_t>("GPL");
  return static_cast<int>(sys_bpf(BPF_PROG_LOAD, attr));
}

// What runc would attach for a container that may use only /dev/null:
// allow c 1:3 (any access), deny everything else.
inline int load_runtime_program() {
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
inline bool bpf_available() {
  int fd = load_device_program({insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 1),
                                insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)});
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

inline void attach_multi(const fs::path& cgroup, int prog_fd, std::uint32_t flags = BPF_F_ALLOW_MULTI) {
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

inline std::vector<std::uint32_t> attached_ids(const fs::path& cgroup) {
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

inline std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ignored;
  for (const auto& entry : fs::directory_iterator(dir, ignored))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

enum class Bpffs { mounted, absent };

// A private mount namespace with its own cgroup2 and (unless Bpffs::absent:
// an empty directory only) bpf mounts; the test process returns to its
// original namespace afterwards.
class PrivateV2 {
 public:
  explicit PrivateV2(Bpffs bpf = Bpffs::mounted) : want_bpffs_(bpf == Bpffs::mounted) {
    original_ns_ = ::open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
    REQUIRE(original_ns_ >= 0);
    REQUIRE(::unshare(CLONE_NEWNS) == 0);
    REQUIRE(::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0);
    cgroup2 = dir.path() + "/cgroup";
    bpffs = dir.path() + "/bpf";
    fs::create_directories(cgroup2);
    fs::create_directories(bpffs);
    mounted_cgroup2_ = ::mount("cgroup2", cgroup2.c_str(), "cgroup2", 0, nullptr) == 0;
    if (want_bpffs_) mounted_bpffs_ = ::mount("bpf", bpffs.c_str(), "bpf", 0, nullptr) == 0;
  }
  ~PrivateV2() {
    ::umount2(bpffs.c_str(), MNT_DETACH);  // ours, or the plugin's (mount_bpffs)
    if (mounted_cgroup2_) ::umount2(cgroup2.c_str(), MNT_DETACH);
    ::setns(original_ns_, CLONE_NEWNS);
    ::close(original_ns_);
  }
  bool ready() const { return mounted_cgroup2_ && (mounted_bpffs_ || !want_bpffs_); }
  std::string config() const {
    return R"({"cgroup_root": ")" + cgroup2.string() + R"(", "bpffs": ")" + bpffs.string() +
           R"("})";
  }

  fixture::TempDir dir{"graft-cgroup-"};
  fs::path cgroup2, bpffs;

 private:
  int original_ns_ = -1;
  bool want_bpffs_ = true, mounted_cgroup2_ = false, mounted_bpffs_ = false;
};

// Why the v2 cases cannot run here, or "" when they can.
inline std::string v2_skip_reason() {
  if (::geteuid() != 0) return "needs root (cgroups, mknod, bpf)";
  if (!bpf_available()) return std::string("bpf() unavailable: ") + std::strerror(errno);
  return "";
}

// --- what each case starts from -------------------------------------------

// The v1 devices hierarchy's mount point, or "" after note_skip (skip.hpp)
// where a v1 case cannot run: not root (`needs` says for what) or no hierarchy.
inline std::string devices_v1_or_skip(const std::string& needs) {
  if (::geteuid() != 0) {
    ::graft::test::note_skip("needs root (" + needs + ")");
    return "";
  }
  std::string devices = devices_v1_mount();
  if (devices.empty()) ::graft::test::note_skip("no cgroup v1 devices hierarchy mounted");
  return devices;
}

// PrivateV2 mounts, or nullptr after note_skip (skip.hpp) where a v2 case
// cannot run.
inline std::unique_ptr<PrivateV2> private_v2_or_skip(Bpffs bpf = Bpffs::mounted) {
  if (auto reason = v2_skip_reason(); !reason.empty()) {
    ::graft::test::note_skip(reason);
    return nullptr;
  }
  auto v2 = std::make_unique<PrivateV2>(bpf);
  if (!v2->ready()) {
    ::graft::test::note_skip("cannot mount cgroup2 and bpf filesystems here");
    return nullptr;
  }
  return v2;
}

// Attaches the runtime's program to `cgroup`: as runc does
// (BPF_F_ALLOW_MULTI) or, with flags 0, as crun does (a single program).
inline void attach_runtime_program(const fs::path& cgroup, std::uint32_t flags = BPF_F_ALLOW_MULTI) {
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

// A V2Container, or nullptr after note_skip (skip.hpp) (see private_v2_or_skip).
inline std::unique_ptr<V2Container> v2_container_or_skip(RuntimeProgram runtime,
                                                        Bpffs bpf = Bpffs::mounted) {
  auto v2 = private_v2_or_skip(bpf);
  if (!v2) return nullptr;
  return std::make_unique<V2Container>(std::move(v2), runtime);
}

}  // namespace graft::cgroup_test
