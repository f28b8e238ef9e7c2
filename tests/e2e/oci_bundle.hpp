// An OCI bundle built in code: a busybox root filesystem laid out like a
// Debian image (etc/debian_version, libraries in /usr/lib/x86_64-linux-gnu)
// or like a lib64 distribution (/usr/lib64), with the host's static ldconfig
// so `ldconfig -p` works inside, and a config.json like `runc spec` writes,
// optionally with graft as its prestart hook.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "temp_dir.hpp"

namespace graft::e2e {

enum class ImageLayout { debian, lib64 };

struct BundleSpec {
  ImageLayout layout = ImageLayout::debian;
  std::vector<std::string> env;  // besides PATH: "NVIDIA_VISIBLE_DEVICES=1", ...
  std::vector<std::string> args = {"/bin/sh", "/graft-check.sh"};
  // When set, hooks.prestart runs `graft --policy <hook_policy> hook prestart`.
  std::string hook_policy;
  std::string cgroups_path;  // linux.cgroupsPath; unique per container
  // Written into the root filesystem last, replacing what the layout put
  // there (a file where the image would have a directory, say).
  std::vector<std::pair<std::string, std::string>> rootfs_files;
};

class OciBundle {
 public:
  explicit OciBundle(const BundleSpec& spec);

  const std::string& path() const { return dir_.path(); }
  std::string rootfs() const { return dir_.path() + "/rootfs"; }
  // Writes a file into the root filesystem (`inside` is a container path).
  void write_in_rootfs(const std::string& inside, const std::string& content, unsigned mode = 0644) const;

 private:
  fixture::TempDir dir_{"graft-e2e-bundle-"};
};

// The busybox applets the check scripts use, linked in /bin.
const std::vector<std::string>& busybox_applets();

}  // namespace graft::e2e
