// SPDX-License-Identifier: Apache-2.0
// A whole new file written beside the one it is to replace, and not yet in
// its place: the first half of replace_file.hpp, for a caller that checks
// the new file where it will live before it takes the name (`graft policy
// install` loads a policy there, so its relative paths resolve as they will).
// commit() renames it over the name (atomic: same directory); a staged file
// never committed is removed when it goes out of scope.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "graft/base/error.hpp"
#include "graft/base/replace_file.hpp"
#include "graft/base/unique_fd.hpp"
#include "graft/base/write_all.hpp"

namespace graft {

class StagedFile {
 public:
  // Beside `name` in `dir_fd` (duplicated, so the caller's may close), with
  // `owner`, or the old file's mode and owner (0644 and the caller's for a new
  // name) as replace_file_at gives it.
  static Result<StagedFile> create(int dir_fd, const std::string& name, std::string_view text,
                                   const std::optional<FileOwner>& owner, const std::string& shown,
                                   WriteCall write_call = ::write);
  // graft's own file at `path`, its directory opened here: owned as
  // replace_file gives it (own_file_owner(); a symlink at `path` refused).
  static Result<StagedFile> create(const std::string& path, std::string_view text);
  // Another's file at `path`, as replace_file_keeping_owner gives it.
  static Result<StagedFile> create_keeping_owner(const std::string& path, std::string_view text);

  StagedFile(StagedFile&& other) noexcept;
  StagedFile& operator=(StagedFile&&) = delete;
  StagedFile(const StagedFile&) = delete;
  ~StagedFile();

  // The staged file's name in the directory (".NAME.graft-PID-N").
  const std::string& temporary_name() const { return temporary_; }
  Status commit();

 private:
  StagedFile(UniqueFd dir, std::string name, std::string temporary, std::string shown);

  UniqueFd dir_;
  std::string name_, temporary_, shown_;
  bool pending_ = true;  // the temporary file is there and not renamed
};

}  // namespace graft
