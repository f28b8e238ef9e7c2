// Issue 4, "Malicious images": the image is written by someone else, and
// graft runs as host root on its start path. For every place graft writes or
// mounts into the container (the library directory and its parents, the
// soname links it makes, /usr/bin, /dev, /proc/driver/nvidia, the firmware
// directory, the IPC paths, /etc/ld.so.cache and /etc/ld.so.conf.d) the image
// plants, at the target or at a parent: an absolute symlink to a host
// directory, a relative ../../.. chain to it, a symlink loop, a dangling
// symlink, a FIFO, a device node, an entry of the wrong type. Then: the
// image's own ldconfig, its CUDA compat libraries, a hostile environment
// (CVE-2025-23266), a read-only rootfs and a rootfs lacking the directories.
//
// Each case is one `runc run` (cgroup v1) with graft as the prestart hook.
// After each: the host sentinel tree the symlinks point at is byte-for-byte
// unchanged with no new entry, no mount appeared on the host, and the outcome
// is either a correct injection (the container ran: GPU 1's node opens as far
// as the absent driver, libcuda.so.1 reads) or a clean refusal (runc failed,
// the container's process never ran, graft's error line names the planted
// path, one audit record "error"). Each case prints its outcome as a
// "malicious-outcome|..." line (docs/security.md has the table).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "container_checks.hpp"
#include "gpu_host.hpp"
#include "host_sentinel.hpp"
#include "temp_dir.hpp"

using namespace graft::e2e;

namespace {

constexpr const char* kENXIO = "No such device or address";
constexpr const char* kWrapper = "/graft-malicious.sh";

HostSentinel& sentinel() {
  static HostSentinel tree;
  return tree;
}

// What graft expects at a target.
enum class Shape { directory, file };

enum class Trick { absolute_symlink, relative_chain, loop, dangling, fifo, device_node, wrong_type };

constexpr Trick kTricks[] = {Trick::absolute_symlink, Trick::relative_chain, Trick::loop,
                             Trick::dangling,         Trick::fifo,           Trick::device_node,
                             Trick::wrong_type};

std::string trick_sentence(Trick trick, Shape shape) {
  switch (trick) {
    case Trick::absolute_symlink: return "is an absolute symlink to the host sentinel";
    case Trick::relative_chain: return "is a relative ../../.. symlink chain to the host sentinel";
    case Trick::loop: return "is a symlink loop";
    case Trick::dangling: return "is a dangling symlink into the host sentinel";
    case Trick::fifo: return "is a FIFO";
    case Trick::device_node: return "is a device node (c 1:3)";
    case Trick::wrong_type:
      return shape == Shape::directory ? "is a regular file where a directory is expected"
                                       : "is a directory where a file is expected";
  }
  return "?";
}

std::string trick_short(Trick trick, Shape shape) {
  switch (trick) {
    case Trick::absolute_symlink: return "absolute symlink";
    case Trick::relative_chain: return "../ chain";
    case Trick::loop: return "loop";
    case Trick::dangling: return "dangling";
    case Trick::fifo: return "FIFO";
    case Trick::device_node: return "device node";
    case Trick::wrong_type: return shape == Shape::directory ? "file for dir" : "dir for file";
  }
  return "?";
}

std::string base_name(const std::string& path) { return path.substr(path.rfind('/') + 1); }

struct Target {
  std::string planted;  // where the entry goes
  std::string shown;    // the container path graft names
  Shape shape;
};

PlantedEntry plant_for(Trick trick, const Target& target) {
  const std::string host = target.shape == Shape::directory ? sentinel().path() : sentinel().file();
  std::string up;
  for (int i = 0; i < 40; ++i) up += "../";
  switch (trick) {
    case Trick::absolute_symlink: return {target.planted, PlantedKind::symlink, host};
    case Trick::relative_chain: return {target.planted, PlantedKind::symlink, up + host.substr(1)};
    case Trick::loop: return {target.planted, PlantedKind::symlink, base_name(target.planted)};
    case Trick::dangling:
      return {target.planted, PlantedKind::symlink, sentinel().path() + "/missing/" + base_name(target.planted)};
    case Trick::fifo: return {target.planted, PlantedKind::fifo, ""};
    case Trick::device_node: return {target.planted, PlantedKind::char_device, ""};
    case Trick::wrong_type:
      return target.shape == Shape::directory
                 ? PlantedEntry{target.planted, PlantedKind::file, "planted by a hostile image\n"}
                 : PlantedEntry{target.planted, PlantedKind::directory, ""};
  }
  return {};
}

// The container's script: says it ran, reads libcuda.so.1 (both layouts),
// looks for compat content and for markers the image's tools would leave,
// then either runs the plan probe (/graft-check.sh) or, when the image's
// ldconfig or PATH must not be touched, a few probes of its own.
std::string wrapper_script(bool full_probe, const std::vector<std::string>& markers) {
  std::string script = R"SH(#!/bin/sh
echo "ran|1"
for f in /usr/lib/x86_64-linux-gnu/libcuda.so.1 /usr/lib64/libcuda.so.1; do
  if [ -e "$f" ]; then
    msg=$(cat "$f" 2>&1 >/dev/null); echo "read|$f|$?|${msg##*: }"
    if grep -q graft-e2e-compat "$f"; then echo "compat|$f|1"; else echo "compat|$f|0"; fi
  fi
done
if grep -q cuda/compat /proc/self/mountinfo; then echo "compatmount|any|1"; else echo "compatmount|any|0"; fi
for d in /usr /usr/lib /usr/lib/x86_64-linux-gnu /usr/bin /run /run/nvidia-persistenced /lib /lib/firmware /lib/firmware/nvidia /lib/firmware/nvidia/560.35.03 /tmp; do
  if [ -d "$d" ] && [ ! -L "$d" ]; then echo "dirmode|$d|$(stat -c '%a %u %g' "$d")"; fi
done
)SH";
  for (const auto& marker : markers)
    script += fmt::format("if [ -e '{0}' ]; then echo 'marker|{0}|1'; else echo 'marker|{0}|0'; fi\n", marker);
  if (full_probe) return script + "exec /bin/sh /graft-check.sh\n";
  return script + R"SH(msg=$(cat /dev/nvidia1 2>&1 >/dev/null </dev/null); echo "open|/dev/nvidia1|$?|${msg##*: }"
if grep -q libcuda.so.1 /etc/ld.so.cache; then echo "cache|/etc/ld.so.cache|1"; else echo "cache|/etc/ld.so.cache|0"; fi
echo "end|ok"
)SH";
}

struct CaseOutcome {
  std::string outcome;  // "injected", "refused by graft", "refused by runc"
  std::string message;  // graft's (or runc's) error line for a refusal
  ProbedContainer container;
};

std::string graft_error_line(const std::string& err) {
  auto at = err.find("graft: container");
  if (at == std::string::npos) return "";
  // runc quotes the hook's stderr: the line ends at a quote, a newline or an escaped "\n".
  auto end = std::min({err.find('"', at), err.find('\n', at), err.find("\\n", at)});
  return err.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

void record(const std::string& family, const std::string& target, const std::string& trick,
            const CaseOutcome& result) {
  std::cout << "malicious-outcome|" << family << "|" << target << "|" << trick << "|" << result.outcome
            << "|" << result.message << "\n";
}

// Starts the hostile image and asserts the invariants. `named` is what a
// refusal's error line must contain.
CaseOutcome run_hostile(BundleSpec spec, const std::string& named, bool full_probe = true,
                        const std::vector<std::string>& markers = {}) {
  spec.args = {"/bin/sh", kWrapper};
  spec.rootfs_files.emplace_back(kWrapper, wrapper_script(full_probe, markers));
  CaseOutcome result;
  result.container = run_probed_container(Runtime::runc, CgroupMode::v1, spec);
  const auto& container = result.container;
  INFO("runc exit " << container.run.exit_code << ", stderr: " << container.run.err);
  INFO("container output:\n" << container.run.out);

  // Nothing reached the host.
  auto changed = sentinel().changes();
  INFO("host sentinel changes:\n" << fmt::format("{}", fmt::join(changed, "\n")));
  CHECK(changed.empty());
  sentinel().rebaseline();
  INFO("leaked mounts:\n" << fmt::format("{}", fmt::join(container.leaked_mounts, "\n")));
  CHECK(container.leaked_mounts.empty());
  CHECK(container.mount_count_change == 0);

  if (container.run.exit_code == 0) {
    result.outcome = "injected";
    CHECK(container.report.find("ran", "1"));
    CHECK(container.report.finished());
    CHECK(container.report.open_result("/dev/nvidia1") == kENXIO);
    auto reads = container.report.subjects("read");
    CHECK(reads.size() == 1);
    for (const auto& path : reads) {
      INFO("libcuda.so.1 at " << path);
      CHECK(container.report.find("read", path)->at(0) == "0");
    }
    CHECK(audit_records(container.id, "applied").size() == 1);
    return result;
  }
  // A refusal: the container's process never ran.
  CHECK_FALSE(container.report.find("ran", "1"));
  CHECK(container.run.out.find("ran|1") == std::string::npos);
  result.message = graft_error_line(container.run.err);
  if (result.message.empty()) {
    result.outcome = "refused by runc";
    result.message = first_line(container.run.err);
    return result;
  }
  result.outcome = "refused by graft";
  CHECK_THAT(result.message, Catch::Contains(named));
  CHECK(audit_records(container.id, "error").size() == 1);
  return result;
}

// One trick at one target of a family, as a DYNAMIC_SECTION of its TEST_CASE.
void run_family(const std::string& family, const std::vector<Target>& targets,
                void (*adjust)(BundleSpec&) = nullptr) {
  for (const auto& target : targets) {
    for (Trick trick : kTricks) {
      DYNAMIC_SECTION(target.shown << " " << trick_sentence(trick, target.shape)) {
        BundleSpec spec = gpu1_compute_utility();
        if (adjust != nullptr) adjust(spec);
        spec.planted.push_back(plant_for(trick, target));
        auto result = run_hostile(spec, target.shown);
        record(family, target.shown, trick_short(trick, target.shape), result);
        if (result.outcome == "injected" && target.shown.find("/lib") != std::string::npos &&
            target.shown != "/lib" && target.shown.find("firmware") == std::string::npos)
          check_planned_libraries(result.container);
      }
    }
  }
}

}  // namespace

TEST_CASE("a hostile library directory or parent (/usr, /usr/lib, the multiarch directory, a library file) never leads graft out of the root",
          "[e2e][malicious][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  run_family("library dir", {{"/usr", "/usr", Shape::directory},
                             {"/usr/lib", "/usr/lib", Shape::directory},
                             {"/usr/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", Shape::directory},
                             {"/usr/lib/x86_64-linux-gnu/libcuda.so.560.35.03",
                              "/usr/lib/x86_64-linux-gnu/libcuda.so.560.35.03", Shape::file}});
}

TEST_CASE("hostile entries where graft makes soname links (libcuda.so.1, libcuda.so) are replaced inside the root or refused",
          "[e2e][malicious][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  run_family("soname links", {{"/usr/lib/x86_64-linux-gnu/libcuda.so.1",
                               "/usr/lib/x86_64-linux-gnu/libcuda.so.1", Shape::file},
                              {"/usr/lib/x86_64-linux-gnu/libcuda.so",
                               "/usr/lib/x86_64-linux-gnu/libcuda.so", Shape::file}});
}

TEST_CASE("a hostile /usr/bin or binary mountpoint never leads graft out of the root",
          "[e2e][malicious][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  run_family("binaries", {{"/usr/bin", "/usr/bin", Shape::directory},
                          {"/usr/bin/nvidia-smi", "/usr/bin/nvidia-smi", Shape::file}});
}

// /dev itself is not planted: with /dev an absolute or ../ symlink, runc
// 1.1.5 creates its /dev/fd, /dev/stdin, ... links through it on the host
// before any hook runs (docs/security.md). /proc/driver/nvidia is not
// plantable: runc refuses any bind inside /proc, and procfs is the kernel's.
TEST_CASE("a hostile device node mountpoint in an image without a /dev tmpfs never leads graft out of the root",
          "[e2e][malicious][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  run_family("devices",
             {{"/dev/nvidia1", "/dev/nvidia1", Shape::file},
              {"/dev/nvidiactl", "/dev/nvidiactl", Shape::file}},
             [](BundleSpec& spec) { spec.dev_tmpfs = false; });
}

TEST_CASE("a hostile firmware directory or file (/lib, /lib/firmware/nvidia/<version>, gsp_ga10x.bin) never leads graft out of the root",
          "[e2e][malicious][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  run_family("firmware", {{"/lib", "/lib", Shape::directory},
                          {"/lib/firmware/nvidia/560.35.03", "/lib/firmware/nvidia/560.35.03", Shape::directory},
                          {"/lib/firmware/nvidia/560.35.03/gsp_ga10x.bin",
                           "/lib/firmware/nvidia/560.35.03/gsp_ga10x.bin", Shape::file}});
}

TEST_CASE("a hostile IPC path (/run/nvidia-persistenced, its socket, /tmp/nvidia-mps) never leads graft out of the root",
          "[e2e][malicious][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  run_family("ipc", {{"/run/nvidia-persistenced", "/run/nvidia-persistenced", Shape::directory},
                     {"/run/nvidia-persistenced/socket", "/run/nvidia-persistenced/socket", Shape::file},
                     {"/tmp/nvidia-mps", "/tmp/nvidia-mps", Shape::directory}});
}

TEST_CASE("a hostile /etc, /etc/ld.so.cache or /etc/ld.so.conf.d never leads the ldconfig run out of the root",
          "[e2e][malicious][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  run_family("ldcache", {{"/etc", "/etc", Shape::directory},
                         {"/etc/ld.so.cache", "/etc/ld.so.cache", Shape::file},
                         {"/etc/ld.so.conf.d", "/etc/ld.so.conf.d", Shape::directory}});
}

TEST_CASE("the image's own /sbin/ldconfig and /sbin/ldconfig.real never run: graft runs the host's, sealed",
          "[e2e][malicious][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  const std::string host_marker = sentinel().path() + "/ldconfig-ran";
  const std::string script = "#!/bin/sh\necho ran >> /image-ldconfig-ran\necho ran >> " + host_marker +
                             "\nexit 0\n";
  BundleSpec spec = gpu1_compute_utility();
  spec.planted = {{"/sbin/ldconfig", PlantedKind::file, script},
                  {"/sbin/ldconfig.real", PlantedKind::file, script},
                  {"/usr/sbin/ldconfig", PlantedKind::file, script},
                  {sentinel().path(), PlantedKind::directory, ""}};  // so a run inside would leave it
  auto result = run_hostile(spec, "ldconfig", /*full_probe=*/false,
                            {"/image-ldconfig-ran", host_marker});
  record("image tools", "/sbin/ldconfig, /sbin/ldconfig.real", "image ships its own", result);
  REQUIRE(result.outcome == "injected");
  const auto& report = result.container.report;
  INFO("container output:\n" << result.container.run.out);
  CHECK(report.find("marker", "/image-ldconfig-ran")->at(0) == "0");
  CHECK(report.find("marker", host_marker)->at(0) == "0");
  // The cache was written all the same, by the sealed host ldconfig.
  CHECK(report.find("cache", "/etc/ld.so.cache")->at(0) == "1");
}

TEST_CASE("CUDA compat libraries in the image (/usr/local/cuda/compat) are never mounted over the driver libraries",
          "[e2e][malicious][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  BundleSpec spec = gpu1_compute_utility();
  for (const char* name : {"libcuda.so.1", "libcuda.so.999.99", "libnvidia-ml.so.1",
                           "libnvidia-ptxjitcompiler.so.999.99"})
    spec.planted.push_back({std::string("/usr/local/cuda/compat/") + name, PlantedKind::file,
                            "graft-e2e-compat: an image's forward-compat library\n"});
  spec.planted.push_back({"/usr/local/cuda-12.6/compat/libcuda.so.1", PlantedKind::symlink,
                          sentinel().file()});
  auto result = run_hostile(spec, "compat");
  record("image tools", "/usr/local/cuda/compat/lib*.so.*", "compat libs present", result);
  REQUIRE(result.outcome == "injected");
  const auto& report = result.container.report;
  INFO("container output:\n" << result.container.run.out);
  CHECK(report.find("compat", "/usr/lib/x86_64-linux-gnu/libcuda.so.1")->at(0) == "0");
  CHECK(report.find("compatmount", "any")->at(0) == "0");
  check_planned_libraries(result.container);
  check_exactly_the_plan(result.container);
}

TEST_CASE("an image environment with LD_PRELOAD, LD_AUDIT, LD_LIBRARY_PATH, GCONV_PATH and PATH pointing at image files is honoured by nothing graft runs (CVE-2025-23266)",
          "[e2e][malicious][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  const std::string marker = sentinel().path() + "/preload-ran";
  // Control: the object does write its marker when a dynamic program loads it.
  {
    graft::fixture::TempDir scratch("graft-e2e-preload-");
    const std::string control = scratch.path() + "/marker";
    auto ran = graft::testing::run_command({"/usr/bin/env", "LD_PRELOAD=" GRAFT_E2E_PRELOAD_MARKER,
                                            "GRAFT_E2E_MARKER=" + control, "/bin/true"});
    REQUIRE(ran.exit_code == 0);
    REQUIRE(std::filesystem::exists(control));
  }
  const std::string tool = "#!/bin/sh\necho ran >> /evil-tool-ran\necho ran >> " + marker + "\nexit 0\n";
  BundleSpec spec = gpu1_compute_utility();
  spec.env.insert(spec.env.end(), {"LD_PRELOAD=/evil/libpreload.so",
                                   "LD_AUDIT=/evil/libpreload.so",
                                   "LD_LIBRARY_PATH=/evil",
                                   "GCONV_PATH=/evil/gconv",
                                   "PATH=/evil:/bin:/sbin:/usr/bin",
                                   "GRAFT_E2E_MARKER=" + marker});
  spec.planted = {{"/evil/ldconfig", PlantedKind::file, tool},
                  {"/evil/ldconfig.real", PlantedKind::file, tool},
                  {"/evil/gconv/gconv-modules", PlantedKind::file, "module INTERNAL EVIL// evil 1\n"},
                  {sentinel().path(), PlantedKind::directory, ""}};
  // The object itself, in the image (rootfs_files may hold binary content).
  spec.rootfs_files.emplace_back("/evil/libpreload.so", [] {
    std::ifstream in(GRAFT_E2E_PRELOAD_MARKER, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }());
  auto result = run_hostile(spec, "LD_PRELOAD", /*full_probe=*/false, {"/evil-tool-ran", marker});
  record("environment", "process.env", "LD_PRELOAD, LD_AUDIT, LD_LIBRARY_PATH, GCONV_PATH, PATH", result);
  REQUIRE(result.outcome == "injected");
  const auto& report = result.container.report;
  INFO("container output:\n" << result.container.run.out);
  CHECK(report.find("marker", "/evil-tool-ran")->at(0) == "0");
  CHECK(report.find("marker", marker)->at(0) == "0");
  CHECK(report.find("cache", "/etc/ld.so.cache")->at(0) == "1");
}

TEST_CASE("a read-only rootfs (root.readonly) is injected or refused, never escaped",
          "[e2e][malicious][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  BundleSpec spec = gpu1_compute_utility();
  spec.readonly_root = true;
  auto result = run_hostile(spec, "/");
  record("rootfs", "root.readonly = true", "read-only rootfs", result);
  if (result.outcome == "injected") check_planned_libraries(result.container);
}

TEST_CASE("a rootfs without /usr, /run, /tmp and /etc/ld.so.conf.d gets them made inside the root, 0755 and owned by the rootfs owner",
          "[e2e][malicious][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  BundleSpec spec = gpu1_compute_utility();
  spec.rootfs_removed = {"/usr", "/run", "/tmp", "/etc/ld.so.conf.d"};
  auto result = run_hostile(spec, "/usr");
  record("rootfs", "/usr, /run, /tmp, /etc/ld.so.conf.d missing", "missing directories", result);
  REQUIRE(result.outcome == "injected");
  check_planned_libraries(result.container);
  check_exactly_the_plan(result.container);
  const auto& report = result.container.report;
  for (const char* dir : {"/usr", "/usr/lib", "/usr/lib/x86_64-linux-gnu", "/usr/bin", "/run",
                          "/run/nvidia-persistenced", "/lib", "/lib/firmware", "/lib/firmware/nvidia",
                          "/lib/firmware/nvidia/560.35.03", "/tmp"}) {
    INFO(dir);
    auto mode = report.find("dirmode", dir);
    REQUIRE(mode);
    CHECK(mode->at(0) == "755 0 0");
  }
}
