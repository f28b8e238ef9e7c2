// SPDX-License-Identifier: Apache-2.0
#include "graft/base/replace_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "graft/base/staged_file.hpp"
#include "graft/base/unique_fd.hpp"

namespace graft {

Status replace_file_at(int dir_fd, const std::string& name, std::string_view text,
                       const std::optional<FileOwner>& owner, const std::string& shown, WriteCall write_call) {
  auto staged = StagedFile::create(dir_fd, name, text, owner, shown, write_call);
  if (!staged) return staged.error();
  return staged->commit();
}

FileOwner own_file_owner() { return FileOwner{0644, ::geteuid(), ::getegid()}; }

Status replace_file(const std::string& path, std::string_view text) {
  auto staged = StagedFile::create(path, text);
  if (!staged) return staged.error();
  return staged->commit();
}

Status replace_file_keeping_owner(const std::string& path, std::string_view text) {
  auto staged = StagedFile::create_keeping_owner(path, text);
  if (!staged) return staged.error();
  return staged->commit();
}

}  // namespace graft
