// SPDX-License-Identifier: Apache-2.0
// An OCI bundle built in code: a busybox root filesystem laid out like a
// Debian image (etc/debian_version, libraries in /usr/lib/x86_64-linux-gnu),
// like a lib64 distribution (/usr/lib64), or like a bare busybox image (an
// empty /usr/lib/x86_64-linux-gnu and nothing else), with the host's static ldconfig
// so `ldconfig -p` works inside, and a config.json like `runc spec` writes,
// optionally with graft as its prestart hook. A hostile image can be built
// too: entries removed, symlinks, FIFOs, device nodes and wrong types planted.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "temp_dir.hpp"

namespace graft::e2e {

enum class ImageLayout { debian, lib64, busybox };

// An entry a hostile image plants where graft will look (tests/e2e/harness/hostile_image.hpp).
enum class PlantedKind { symlink, fifo, char_device, directory, file };
struct PlantedEntry {
  std::string path;  // a container path
  PlantedKind kind = PlantedKind::file;
  std::string value;  // symlink: the link value; file: the content; char_device: ignored (1:3)
};

// A node the runtime makes in the container's /dev before any hook runs
// (config.json's linux.devices), mode 0666, owned by root.
struct SpecDevice {
  std::string path;  // in the container
  char type = 'c';
  unsigned major = 0;
  unsigned minor = 0;
};

struct BundleSpec {
  ImageLayout layout = ImageLayout::debian;
  std::vector<std::string> env;  // besides PATH: "NVIDIA_VISIBLE_DEVICES=1", ...
  std::vector<std::string> args = {"/bin/sh", "/graft-check.sh"};
  std::map<std::string, std::string> annotations;  // config.json's, as an engine sets them
  // When set, hooks.prestart runs `<hook_binary> --policy <hook_policy> hook prestart`.
  std::string hook_policy;
  std::string hook_binary = GRAFT_BINARY;  // the graft built here, or an installed one
  std::string cgroups_path;  // linux.cgroupsPath; unique per container
  // Written into the root filesystem last, replacing what the layout put
  // there (a file where the image would have a directory, say).
  std::vector<std::pair<std::string, std::string>> rootfs_files;
  // Container paths the layout made that the image lacks (removed first).
  std::vector<std::string> rootfs_removed;
  // Made last, replacing whatever was at the path (parents are made as directories).
  std::vector<PlantedEntry> planted;
  // Volumes, as an engine passes them: {host directory, container path},
  // each an rbind mount in config.json after the runtime's own.
  std::vector<std::pair<std::string, std::string>> volumes;
  bool readonly_root = false;  // root.readonly
  // false: no tmpfs on /dev, so the image's own /dev is what the hook sees.
  bool dev_tmpfs = true;
  // CAP_SYS_ADMIN in every capability set: what graft calls privileged.
  bool privileged = false;
  // linux.resources.devices allows every device after denying them (`a
  // *:* rwm`), as an engine writes a privileged container's spec.
  bool allow_all_devices = false;
  // linux.devices: nodes the runtime makes (the device cgroup is separate).
  std::vector<SpecDevice> devices;
  // More capabilities in every set ("CAP_CHOWN", ...).
  std::vector<std::string> extra_capabilities;
  // A directory under $TMPDIR (or /tmp) to build the bundle in, such as a
  // filesystem mounted with other flags; "" for $TMPDIR itself.
  std::string tmp_subdir;
  // Called with the bundle's path once it is complete, before any runtime
  // sees it (a test starts watching its files there).
  std::function<void(const std::string& bundle)> on_built;
};

class OciBundle {
 public:
  explicit OciBundle(const BundleSpec& spec);

  const std::string& path() const { return dir_.path(); }
  std::string rootfs() const { return dir_.path() + "/rootfs"; }
  // Makes one planted entry (see PlantedEntry).
  void plant(const PlantedEntry& entry) const;
  // Writes a file into the root filesystem (`inside` is a container path).
  void write_in_rootfs(const std::string& inside, const std::string& content, unsigned mode = 0644) const;

 private:
  fixture::TempDir dir_;
};

// The busybox applets the check scripts use, linked in /bin.
const std::vector<std::string>& busybox_applets();

}  // namespace graft::e2e
