// SPDX-License-Identifier: Apache-2.0
// The fake host fixture: what it builds is what discovery will read, so each
// piece is checked against the format the real driver and tools produce.
#include "fake_host.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "fixture_files.hpp"
#include "graft/base/ldcache.hpp"
#include "ldcache_file.hpp"
#include "skip.hpp"

using namespace graft;
using namespace graft::fixture;

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

struct stat lstat_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::lstat(path.c_str(), &st) == 0);
  return st;
}

bool has_entry(const std::vector<LdCacheEntry>& entries, std::string_view key,
               const std::string& value) {
  return std::any_of(entries.begin(), entries.end(), [&](const LdCacheEntry& entry) {
    return entry.key == key && entry.value == value &&
           ldcache_abi(entry.flags) == LdCacheAbi::native;
  });
}

// Whether the machine running the tests has a real driver on major 195, in
// which case opening a fake node would reach real hardware.
bool host_has_gpu_driver() {
  std::string devices = read_text("/proc/devices");
  return devices.find("\n195 ") != std::string::npos;
}

}  // namespace

TEST_CASE("A fake host writes a driver version file naming its version", "[fixture]") {
  FakeHost host = FakeHost::build(FakeHostSpec::with_gpus(1));
  std::string version = read_text(host.path("/proc/driver/nvidia/version"));
  CHECK_THAT(version,
             Catch::StartsWith("NVRM version: NVIDIA UNIX ") &&
                 Catch::Contains("Kernel Module  560.35.03  Fri Aug 16 21:39:15 UTC 2024\n") &&
                 Catch::Contains("\nGCC version:  gcc version"));
  CHECK_THAT(read_text(host.path("/proc/driver/nvidia/params")),
             Catch::Contains("\nModifyDeviceFiles: 1\n"));
  CHECK(std::filesystem::is_regular_file(host.path("/proc/driver/nvidia/registry")));
}

TEST_CASE("Each fake GPU has an information file with its model, uuid, bus id and minor",
          "[fixture]") {
  FakeHost host = FakeHost::build(FakeHostSpec::with_gpus(2));
  const FakeGpuSpec& gpu = host.spec().gpus.at(1);
  CHECK(gpu.uuid == "GPU-abc00001-0000-4000-8000-000000000001");
  CHECK(gpu.bus_id == "0000:3b:00.0");
  std::string info = read_text(host.path("/proc/driver/nvidia/gpus/0000:3b:00.0/information"));
  CHECK_THAT(info, Catch::StartsWith("Model: \t\t NVIDIA H100 80GB HBM3\n"));
  CHECK_THAT(info, Catch::Contains("\nGPU UUID: \t GPU-abc00001-0000-4000-8000-000000000001\n"));
  CHECK_THAT(info, Catch::Contains("\nBus Location: \t 0000:3b:00.0\n"));
  CHECK_THAT(info, Catch::Contains("\nDevice Minor: \t 1\n"));
  CHECK_THAT(info, Catch::Contains("\nGPU Excluded:\t No\n"));
  CHECK(std::filesystem::exists(host.path("/proc/driver/nvidia/gpus/0000:19:00.0/information")));
}

TEST_CASE("MIG capability files and mig-minors agree on the minors", "[fixture]") {
  FakeHost host = FakeHost::build(FakeHostSpec::with_gpus(2, true));
  std::string caps = host.path("/proc/driver/nvidia/capabilities");
  CHECK(read_text(caps + "/mig/config") ==
        "DeviceFileMinor: 1\nDeviceFileMode: 256\nDeviceFileModify: 1\n");
  CHECK_THAT(read_text(caps + "/mig/monitor"), Catch::StartsWith("DeviceFileMinor: 2\n"));
  CHECK_THAT(read_text(caps + "/gpu1/mig/gi2/access"),
             Catch::StartsWith(fmt::format("DeviceFileMinor: {}\n", mig_gi_minor(1, 2))));
  CHECK_THAT(read_text(caps + "/gpu1/mig/gi2/ci1/access"),
             Catch::StartsWith(fmt::format("DeviceFileMinor: {}\n", mig_ci_minor(1, 2, 1))));

  std::string minors = read_text(host.path("/proc/driver/nvidia-caps/mig-minors"));
  CHECK_THAT(minors,
             Catch::StartsWith("config 1\nmonitor 2\ngpu0/gi0/access 3\ngpu0/gi0/ci0/access 4\n"));
  CHECK_THAT(minors, Catch::Contains(fmt::format("\ngpu1/gi2/access {}\n", mig_gi_minor(1, 2))));
  CHECK_THAT(minors,
             Catch::Contains(fmt::format("\ngpu1/gi2/ci1/access {}\n", mig_ci_minor(1, 2, 1))));
  CHECK_THAT(minors, Catch::EndsWith("\ngpu31/gi14/ci7/access 4322\n"));
}

TEST_CASE("A GPU without MIG instances has no capability directory", "[fixture]") {
  FakeHost host = FakeHost::build(FakeHostSpec::with_gpus(1));
  CHECK_FALSE(std::filesystem::exists(host.path("/proc/driver/nvidia/capabilities/gpu0")));
  CHECK(std::filesystem::exists(host.path("/proc/driver/nvidia/capabilities/mig/config")));
}

TEST_CASE("/proc/devices lists the frontend, uvm and caps majors", "[fixture]") {
  FakeHost host = FakeHost::build(FakeHostSpec::with_gpus(1));
  std::string devices = read_text(host.path("/proc/devices"));
  CHECK_THAT(devices, Catch::StartsWith("Character devices:\n  1 mem\n"));
  CHECK_THAT(devices, Catch::Contains("\n195 nvidia\n195 nvidiactl\n"));
  CHECK_THAT(devices, Catch::Contains("\n508 nvidia-uvm\n509 nvidia-caps\n"));
  CHECK_THAT(devices, Catch::Contains("\n\nBlock devices:\n  7 loop\n"));
}

TEST_CASE("Every fake library is in the cache under its soname, linked to the versioned file",
          "[fixture]") {
  FakeHost host = FakeHost::build(FakeHostSpec::with_gpus(1));
  if (!host.ldcache_created()) {
    GRAFT_SKIP("the fixture could not run ldconfig: " << host.ldcache_problem());
  }
  auto entries = read_ldcache_file(host.path("/etc/ld.so.cache"));
  REQUIRE(entries.ok());
  for (const FakeLibrary& lib : fake_driver_libraries()) {
    INFO(lib.file << " soname " << lib.soname);
    std::string soname_path = FakeHost::lib_dir() + "/" + std::string(lib.soname);
    CHECK(has_entry(*entries, lib.soname, soname_path));
    CHECK(std::filesystem::is_regular_file(
        host.path(FakeHost::lib_dir() + "/" + std::string(lib.file))));
    if (lib.soname != lib.file) {
      CHECK(std::filesystem::read_symlink(host.path(soname_path)) == lib.file);
    }
  }
}

TEST_CASE("The fake libcuda's ELF SONAME is libcuda.so.1", "[fixture]") {
  FakeHost host = FakeHost::build(FakeHostSpec::with_gpus(1));
  ProgramResult dump = run_program(
      {"/usr/bin/objdump", "-p", host.path(FakeHost::lib_dir() + "/libcuda.so.560.35.03")});
  if (dump.exit_code != 0) {
    GRAFT_SKIP("objdump did not run: " << dump.output);
  }
  CHECK_THAT(dump.output, Catch::Contains("SONAME               libcuda.so.1\n"));
  CHECK_THAT(dump.output, Catch::Contains("NEEDED               libc.so.6\n"));
}

TEST_CASE("Libraries whose real soname carries the driver version keep it", "[fixture]") {
  auto libs = fake_driver_libraries();
  auto glcore = std::find_if(libs.begin(), libs.end(), [](const FakeLibrary& lib) {
    return lib.file == "libnvidia-glcore.so.560.35.03";
  });
  REQUIRE(glcore != libs.end());
  CHECK(glcore->soname == "libnvidia-glcore.so.560.35.03");
}

TEST_CASE("A stray libcuda from an older driver is in the cache beside the current one",
          "[fixture]") {
  FakeHost host = FakeHost::build(FakeHostSpec::with_gpus(1));
  if (!host.ldcache_created()) {
    GRAFT_SKIP("the fixture could not run ldconfig: " << host.ldcache_problem());
  }
  auto entries = read_ldcache_file(host.path("/etc/ld.so.cache"));
  REQUIRE(entries.ok());
  CHECK(has_entry(*entries, "libcuda.so.1", "/usr/local/lib/libcuda.so.1"));
  CHECK(has_entry(*entries, "libcuda.so.1", FakeHost::lib_dir() + "/libcuda.so.1"));
  CHECK(std::filesystem::read_symlink(host.path("/usr/local/lib/libcuda.so.1")) ==
        "libcuda.so.470.1.2");
}

TEST_CASE("A library left out by the spec is missing from the tree and the cache", "[fixture]") {
  FakeHostSpec spec = FakeHostSpec::with_gpus(1);
  spec.without_libraries = {"libnvidia-ngx.so.1"};
  FakeHost host = FakeHost::build(spec);
  CHECK_FALSE(
      std::filesystem::exists(host.path(FakeHost::lib_dir() + "/libnvidia-ngx.so.560.35.03")));
  if (!host.ldcache_created()) return;
  auto entries = read_ldcache_file(host.path("/etc/ld.so.cache"));
  REQUIRE(entries.ok());
  CHECK_FALSE(
      has_entry(*entries, "libnvidia-ngx.so.1", FakeHost::lib_dir() + "/libnvidia-ngx.so.1"));
}

TEST_CASE("Binaries are executable and firmware sits under the driver version", "[fixture]") {
  FakeHost host = FakeHost::build(FakeHostSpec::with_gpus(1));
  for (const char* name :
       {"nvidia-smi", "nvidia-debugdump", "nvidia-persistenced", "nv-fabricmanager",
        "nvidia-cuda-mps-control", "nvidia-cuda-mps-server"}) {
    INFO(name);
    CHECK(::access(host.path(std::string("/usr/bin/") + name).c_str(), X_OK) == 0);
  }
  CHECK(
      std::filesystem::is_regular_file(host.path("/lib/firmware/nvidia/560.35.03/gsp_ga10x.bin")));
  CHECK(
      std::filesystem::is_regular_file(host.path("/lib/firmware/nvidia/560.35.03/gsp_tu10x.bin")));
}

TEST_CASE("IPC endpoints are real sockets and the MPS pipe directory exists", "[fixture]") {
  FakeHost host = FakeHost::build(FakeHostSpec::with_gpus(1));
  CHECK(S_ISSOCK(lstat_of(host.path("/run/nvidia-persistenced/socket")).st_mode));
  CHECK(S_ISSOCK(lstat_of(host.path("/run/nvidia-fabricmanager/socket")).st_mode));
  struct stat through_var_run {};  // /var/run -> ../run, as on a real host
  REQUIRE(::stat(host.path("/var/run/nvidia-persistenced/socket").c_str(), &through_var_run) == 0);
  CHECK(S_ISSOCK(through_var_run.st_mode));
  CHECK(std::filesystem::is_directory(host.path("/tmp/nvidia-mps")));
}

TEST_CASE("Graphics config files are where the toolkit looks for them", "[fixture]") {
  FakeHost host = FakeHost::build(FakeHostSpec::with_gpus(1));
  CHECK_THAT(read_text(host.path("/usr/share/glvnd/egl_vendor.d/10_nvidia.json")),
             Catch::Contains("libEGL_nvidia.so.0"));
  CHECK_THAT(read_text(host.path("/etc/vulkan/icd.d/nvidia_icd.json")),
             Catch::Contains("libGLX_nvidia.so.0"));
  CHECK(std::filesystem::is_regular_file(
      host.path("/usr/share/egl/egl_external_platform.d/15_nvidia_gbm.json")));
}

TEST_CASE("As root, device nodes are character devices with the driver's numbers", "[fixture]") {
  FakeHost host = FakeHost::build(FakeHostSpec::with_gpus(2, true));
  if (!host.device_nodes_created()) {
    GRAFT_SKIP(host.device_nodes_problem());
  }
  auto check_node = [&](const std::string& rel, unsigned major, unsigned minor) {
    INFO(rel);
    struct stat st = lstat_of(host.path(rel));
    CHECK(S_ISCHR(st.st_mode));
    CHECK(::major(st.st_rdev) == major);
    CHECK(::minor(st.st_rdev) == minor);
  };
  check_node("/dev/nvidiactl", 195, 255);
  check_node("/dev/nvidia-modeset", 195, 254);
  check_node("/dev/nvidia0", 195, 0);
  check_node("/dev/nvidia1", 195, 1);
  check_node("/dev/nvidia-uvm", 508, 0);
  check_node("/dev/nvidia-uvm-tools", 508, 1);
  check_node("/dev/nvidia-caps/nvidia-cap1", 509, 1);
  check_node("/dev/nvidia-caps/nvidia-cap2", 509, 2);
  check_node(fmt::format("/dev/nvidia-caps/nvidia-cap{}", mig_ci_minor(1, 2, 1)), 509,
             mig_ci_minor(1, 2, 1));
}

TEST_CASE("Opening a fake device node fails with ENXIO: there is no driver behind it",
          "[fixture]") {
  FakeHost host = FakeHost::build(FakeHostSpec::with_gpus(1));
  if (!host.device_nodes_created() || host_has_gpu_driver()) {
    GRAFT_SKIP((host.device_nodes_created() ? "this machine has a real GPU driver"
                                            : host.device_nodes_problem()));
  }
  int fd = ::open(host.path("/dev/nvidia0").c_str(), O_RDWR | O_CLOEXEC);
  int error = errno;
  if (fd >= 0) ::close(fd);
  CHECK(fd < 0);
  CHECK(error == ENXIO);
}

TEST_CASE("A spec without device nodes says so and makes none", "[fixture]") {
  FakeHostSpec spec = FakeHostSpec::with_gpus(1);
  spec.with_device_nodes = false;
  FakeHost host = FakeHost::build(spec);
  CHECK_FALSE(host.device_nodes_created());
  CHECK_THAT(host.device_nodes_problem(), Catch::Contains("switched off"));
  CHECK(std::filesystem::is_directory(host.path("/dev")));
  CHECK_FALSE(std::filesystem::exists(host.path("/dev/nvidiactl")));
}

TEST_CASE("Every host root of a fake host is its temporary directory", "[fixture]") {
  FakeHost host = FakeHost::build(FakeHostSpec::with_gpus(1));
  HostRoots roots = host.roots();
  CHECK(roots.driver_root == host.root());
  CHECK(roots.dev_root == host.root());
  CHECK(roots.proc_root == host.root());
  CHECK(roots.run_root == host.root());
  CHECK(host.path("/etc/ld.so.cache") == host.root() + "/etc/ld.so.cache");
  CHECK(host.path("etc/ld.so.cache") == host.root() + "/etc/ld.so.cache");
}

TEST_CASE("A fake host removes its tree when destroyed, and moving keeps it", "[fixture]") {
  std::string root;
  {
    FakeHost first = FakeHost::build(FakeHostSpec::with_gpus(1));
    root = first.root();
    FakeHost second = std::move(first);
    CHECK(second.root() == root);
    CHECK(std::filesystem::is_directory(root + "/proc/driver"));
  }
  CHECK_FALSE(std::filesystem::exists(root));
}
