// SPDX-License-Identifier: Apache-2.0
#include "oci_bundle.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "fixture_files.hpp"
#include "hook_timing.hpp"

namespace graft::e2e {
namespace {

using nlohmann::json;

void make_rootfs(const std::string& root, ImageLayout layout) {
  for (const char* dir : {"/bin", "/sbin", "/etc", "/proc", "/sys", "/dev", "/tmp", "/run", "/usr/bin"})
    fixture::make_dirs(root + dir);
  ::chmod((root + "/tmp").c_str(), 01777);
  fixture::copy_file(GRAFT_E2E_BUSYBOX, root + "/bin/busybox", 0755);
  for (const auto& applet : busybox_applets()) fixture::make_symlink("busybox", root + "/bin/" + applet);
  // The host's ldconfig is static (Debian's is static-pie): it runs in any image.
  fixture::copy_file(GRAFT_E2E_LDCONFIG, root + "/sbin/ldconfig", 0755);
  fixture::write_file(root + "/etc/passwd", "root:x:0:0:root:/root:/bin/sh\n");
  fixture::write_file(root + "/etc/group", "root:x:0:\n");
  if (layout == ImageLayout::debian) {
    fixture::write_file(root + "/etc/debian_version", "12.7\n");
    fixture::write_file(root + "/etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n");
    fixture::write_file(root + "/etc/ld.so.conf.d/x86_64-linux-gnu.conf",
                        "/usr/local/lib/x86_64-linux-gnu\n/lib/x86_64-linux-gnu\n/usr/lib/x86_64-linux-gnu\n");
    fixture::make_dirs(root + "/usr/lib/x86_64-linux-gnu");
  } else if (layout == ImageLayout::busybox) {
    fixture::make_dirs(root + "/usr/lib/x86_64-linux-gnu");  // empty: no debian_version, no ld.so.conf
  } else {
    fixture::write_file(root + "/etc/redhat-release", "Rocky Linux release 9.4 (Blue Onyx)\n");
    fixture::write_file(root + "/etc/ld.so.conf", "include ld.so.conf.d/*.conf\n");
    fixture::make_dirs(root + "/usr/lib64");
  }
}

json capability_set(const BundleSpec& spec) {
  // runc spec's defaults plus CAP_MKNOD: the tests make a node the cgroup denies.
  json caps = json::array({"CAP_AUDIT_WRITE", "CAP_KILL", "CAP_NET_BIND_SERVICE", "CAP_MKNOD"});
  if (spec.privileged) caps.push_back("CAP_SYS_ADMIN");
  for (const auto& cap : spec.extra_capabilities) caps.push_back(cap);
  return caps;
}

json mounts(const BundleSpec& spec) {
  json list = json::array({
      {{"destination", "/proc"}, {"type", "proc"}, {"source", "proc"}},
      {{"destination", "/dev/pts"}, {"type", "devpts"}, {"source", "devpts"},
       {"options", {"nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620", "gid=5"}}},
      {{"destination", "/dev/shm"}, {"type", "tmpfs"}, {"source", "shm"},
       {"options", {"nosuid", "noexec", "nodev", "mode=1777", "size=65536k"}}},
      {{"destination", "/dev/mqueue"}, {"type", "mqueue"}, {"source", "mqueue"},
       {"options", {"nosuid", "noexec", "nodev"}}},
      {{"destination", "/sys"}, {"type", "sysfs"}, {"source", "sysfs"},
       {"options", {"nosuid", "noexec", "nodev", "ro"}}},
      {{"destination", "/sys/fs/cgroup"}, {"type", "cgroup"}, {"source", "cgroup"},
       {"options", {"nosuid", "noexec", "nodev", "relatime", "ro"}}},
      // This machine has no NVIDIA driver, so the kernel's /proc/driver is empty
      // and procfs refuses new directories: the procfs plugin would find no
      // /proc/driver/nvidia to cover with its tmpfs. On a GPU host the driver
      // makes that directory; here a tmpfs at /proc/driver stands in for it
      // (runc allows a mount there; it is not one of the masked paths).
      {{"destination", "/proc/driver"}, {"type", "tmpfs"}, {"source", "tmpfs"},
       {"options", {"nosuid", "nodev", "noexec", "mode=755", "size=1024k"}}},
  });
  if (spec.dev_tmpfs) {
    json dev = {{"destination", "/dev"}, {"type", "tmpfs"}, {"source", "tmpfs"},
                {"options", {"nosuid", "strictatime", "mode=755", "size=65536k"}}};
    list.insert(list.begin() + 1, dev);
  }
  for (const auto& [source, destination] : spec.volumes)
    list.push_back({{"destination", destination}, {"type", "bind"}, {"source", source},
                    {"options", {"rbind", "rw"}}});
  return list;
}

// runc spec's default (deny every device), then for a privileged
// container's spec the rule that allows them all.
json device_rules(const BundleSpec& spec) {
  json rules = json::array({{{"allow", false}, {"access", "rwm"}}});
  if (spec.allow_all_devices) rules.push_back({{"allow", true}, {"access", "rwm"}});
  return rules;
}

json spec_devices(const BundleSpec& spec) {
  json nodes = json::array();
  for (const auto& device : spec.devices)
    nodes.push_back({{"path", device.path}, {"type", std::string(1, device.type)}, {"major", device.major},
                     {"minor", device.minor}, {"fileMode", 0666}, {"uid", 0}, {"gid", 0}});
  return nodes;
}

json config(const BundleSpec& spec) {
  bool own_path = false;
  for (const auto& entry : spec.env) own_path = own_path || entry.starts_with("PATH=");
  json env = own_path ? json::array() : json::array({"PATH=/bin:/sbin:/usr/bin"});
  for (const auto& entry : spec.env) env.push_back(entry);
  json caps = capability_set(spec);
  json config = {
      {"ociVersion", "1.0.2-dev"},
      {"process",
       {{"terminal", false},
        {"user", {{"uid", 0}, {"gid", 0}}},
        {"args", spec.args},
        {"env", env},
        {"cwd", "/"},
        {"capabilities",
         {{"bounding", caps}, {"effective", caps}, {"permitted", caps}, {"ambient", caps}}},
        {"rlimits", json::array({{{"type", "RLIMIT_NOFILE"}, {"hard", 1024}, {"soft", 1024}}})},
        {"noNewPrivileges", true}}},
      // Writable: the hook creates mount points, links and ld.so.cache in it.
      {"root", {{"path", "rootfs"}, {"readonly", spec.readonly_root}}},
      {"hostname", "graft-e2e"},
      {"mounts", mounts(spec)},
      {"linux",
       {{"resources", {{"devices", device_rules(spec)}}},
        {"namespaces", json::array({{{"type", "pid"}}, {{"type", "network"}}, {{"type", "ipc"}},
                                    {{"type", "uts"}}, {{"type", "mount"}}})},
        {"maskedPaths", {"/proc/acpi", "/proc/asound", "/proc/kcore", "/proc/keys",
                         "/proc/latency_stats", "/proc/timer_list", "/proc/timer_stats",
                         "/proc/sched_debug", "/sys/firmware", "/proc/scsi"}},
        {"readonlyPaths", {"/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger"}}}},
  };
  if (!spec.cgroups_path.empty()) config["linux"]["cgroupsPath"] = spec.cgroups_path;
  if (!spec.devices.empty()) config["linux"]["devices"] = spec_devices(spec);
  if (!spec.annotations.empty()) config["annotations"] = spec.annotations;
  if (!spec.hook_policy.empty())
    config["hooks"]["prestart"] = json::array(
        {{{"path", spec.hook_binary},
          {"args", {"graft", "--node-allow", GRAFT_TEST_NODE_ALLOW, "--policy", spec.hook_policy, "hook", "prestart"}},
          {"timeout", kRuntimeHookTimeoutS}}});
  return config;
}

}  // namespace

const std::vector<std::string>& busybox_applets() {
  static const std::vector<std::string> applets = {
      "sh", "cat", "ls", "readlink", "mknod", "stat", "grep", "test", "[", "echo",
      "mkdir", "sleep", "true", "head", "mount", "chmod", "chown"};
  return applets;
}

OciBundle::OciBundle(const BundleSpec& spec)
    : dir_(spec.tmp_subdir.empty() ? "graft-e2e-bundle-" : spec.tmp_subdir + "/graft-e2e-bundle-") {
  make_rootfs(rootfs(), spec.layout);
  for (const auto& [inside, content] : spec.rootfs_files) {
    std::filesystem::remove_all(rootfs() + inside);
    write_in_rootfs(inside, content);
  }
  for (const auto& inside : spec.rootfs_removed) std::filesystem::remove_all(rootfs() + inside);
  for (const auto& entry : spec.planted) plant(entry);
  fixture::write_file(path() + "/config.json", config(spec).dump(2) + "\n");
  if (spec.on_built) spec.on_built(path());
}

void OciBundle::plant(const PlantedEntry& entry) const {
  std::string where = rootfs() + entry.path;
  std::filesystem::remove_all(where);  // never follows a symlink
  fixture::make_dirs(std::filesystem::path(where).parent_path().string());
  int made = 0;
  switch (entry.kind) {
    case PlantedKind::symlink: made = ::symlink(entry.value.c_str(), where.c_str()); break;
    case PlantedKind::fifo: made = ::mkfifo(where.c_str(), 0644); break;
    case PlantedKind::char_device: made = ::mknod(where.c_str(), S_IFCHR | 0666, makedev(1, 3)); break;
    case PlantedKind::directory: fixture::make_dirs(where); break;
    case PlantedKind::file: fixture::write_file(where, entry.value); break;
  }
  if (made != 0) throw std::runtime_error("cannot plant " + where);
}

void OciBundle::write_in_rootfs(const std::string& inside, const std::string& content,
                                unsigned mode) const {
  fixture::write_file(rootfs() + inside, content, static_cast<mode_t>(mode));
}

}  // namespace graft::e2e
