// SPDX-License-Identifier: Apache-2.0
// A tmpfs mounted with chosen flags (nosuid, nodev, noexec) for one test,
// in a private mount namespace this process enters for the object's life:
// the mount never shows in the host's mountinfo, where a test running in
// parallel compares mount tables, and the containers started meanwhile
// (runc is a child) see it. The destructor unmounts it and returns to the
// namespace the process came from.
#pragma once

#include <string>

#include "private_namespace.hpp"
#include "temp_dir.hpp"

namespace graft::e2e {

class PrivateTmpfs {
 public:
  // `flags` are mount(2) MS_* flags; throws std::runtime_error naming the call that failed.
  explicit PrivateTmpfs(unsigned long flags);
  ~PrivateTmpfs();
  PrivateTmpfs(const PrivateTmpfs&) = delete;
  PrivateTmpfs& operator=(const PrivateTmpfs&) = delete;

  const std::string& path() const { return dir_.path(); }
  // The mount point relative to $TMPDIR (or /tmp), for BundleSpec::tmp_subdir.
  std::string tmp_subdir() const;
  // Its options as /proc/self/mountinfo shows them ("rw,nosuid,nodev,...").
  std::string mount_options() const;

 private:
  fixture::TempDir dir_{"graft-e2e-fs-"};
  PrivateNamespace namespace_;  // entered after the directory is made, left before it goes
};

}  // namespace graft::e2e
