// SPDX-License-Identifier: Apache-2.0
// One file `graft runtime configure` changes: where, its text before and
// after, and how the change is read from disk and made. A configuration is
// read only as a regular file of bounded size; a symlink at the name is the
// admin's own (/etc/docker/daemon.json -> /srv/...) and is followed, the file
// it leads to edited and named in the output, never replaced by a file. A
// drop-in graft writes is never read through a symlink. Writes replace the
// file whole (temp file beside it, then rename): the admin's file keeps its
// mode and owner (graft edits it for the admin, it does not take it over);
// graft's own drop-in is root's and 0644 whatever was there, since it names
// a runtime the engine runs as root.
#pragma once

#include <optional>
#include <string>

#include "graft/base/error.hpp"

namespace graft::runtime_config {

// Whose file a path is: the admin's configuration (a symlink there is
// followed, its owner and mode kept) or a drop-in graft owns (a symlink
// there is refused; written as graft's own file).
enum class FileOwnerKind { admin, graft };

struct FileChange {
  std::string path;                   // the file written or removed (a symlink's target)
  std::string shown;                  // how messages name it: path, or "LINK -> path"
  std::optional<std::string> before;  // nullopt: the file is not there
  std::optional<std::string> after;   // nullopt: the file is removed (or stays absent)
  FileOwnerKind owner = FileOwnerKind::admin;
  bool changes() const { return before != after; }
};

// The file at `path` as it is now: its text, or nullopt when it is absent.
// Fails on anything but a regular file, a file over 1 MiB, or (for graft's
// own drop-ins) a symlink.
Result<FileChange> read_config_file(const std::string& path, FileOwnerKind owner);

// Makes the change: writes `after` atomically (creating the directory,
// 0755, when it is missing) or removes the file. Nothing when nothing changes.
Status apply_change(const FileChange& change);

}  // namespace graft::runtime_config
