// SPDX-License-Identifier: Apache-2.0
// Replacing a file whole: the new content goes to a file created
// exclusively beside it (same directory, so the rename is atomic), 0600
// while it is written, then given its final mode and owner, and is then
// renamed over the name. A reader (a runtime watching /etc/cdi, runc
// reading config.json, a dynamic linker mapping ld.so.cache) sees the old
// file or the new one, never half, and nobody the old file kept out reads
// the new one while it is written.
// Nothing at the name is opened or followed: a symlink there is replaced,
// or (graft's own files) refused.
//
// Whose file it is decides its final owner and mode. A file graft writes as
// its own output (a CDI spec, a policy, a drop-in) is graft's user's and
// 0644 whatever lay at the name: a file planted there (0666, another uid) or
// a link would otherwise hand its owner and mode on, and a spec or policy
// names what runs as root. A file graft edits for its owner (a bundle's
// config.json, an admin's daemon.json) keeps that owner and mode.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <string_view>

#include "graft/base/error.hpp"
#include "graft/base/write_all.hpp"

namespace graft {

struct FileOwner {
  mode_t mode = 0644;
  uid_t uid = 0;
  gid_t gid = 0;
};

// In the directory `dir_fd` (O_PATH will do). With `owner`, the new file
// gets it; without, an existing file keeps its mode and owner and a new one
// is 0644 and the caller's. `shown` names the file in messages. On failure
// nothing is left beside the name. `write_call` writes the contents (tests
// give another).
Status replace_file_at(int dir_fd, const std::string& name, std::string_view text,
                       const std::optional<FileOwner>& owner, const std::string& shown,
                       WriteCall write_call = ::write);

// The owner and mode of graft's own output: whoever graft runs as (root on a
// host), 0644.
FileOwner own_file_owner();

// graft's own file at `path`, its directory opened here: own_file_owner(),
// whatever was there. A symlink at `path` is refused with one line, neither
// followed nor replaced: the command writes the file itself, not where a
// link leads.
Status replace_file(const std::string& path, std::string_view text);

// Another's file at `path` edited for them: the old file's mode and owner
// (0644 and the caller's for a new name). A symlink at `path` is replaced;
// a caller that follows an admin's link resolves it first.
Status replace_file_keeping_owner(const std::string& path, std::string_view text);

}  // namespace graft
