// SPDX-License-Identifier: Apache-2.0
// Where a decision came from: a policy file position or a rule's file:line.
// Every Intent entry and Plan action carries one, which is what makes a plan auditable.
#pragma once

#include <string>

namespace graft {

struct Origin {
  std::string file;  // path as given (rendered by its basename)
  int line = 0;
  int column = 0;

  bool empty() const { return file.empty(); }
  // "vendor.toml:12" (basename, line) for plan output.
  std::string brief() const;
  // "/etc/graft/graft.toml:12:5" for error messages.
  std::string full() const;
  bool operator==(const Origin&) const = default;
};

}  // namespace graft
