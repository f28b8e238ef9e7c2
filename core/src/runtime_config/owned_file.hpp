// SPDX-License-Identifier: Apache-2.0
// Drop-in files graft writes whole (CRI-O's crio.conf.d, podman's
// containers.conf.d): the text under graft's first line (kWrittenByGraft),
// which is how a later run knows the file is graft's to replace or delete.
// A file at that name without the line is the admin's and is left alone.
#pragma once

#include <optional>
#include <string>

#include "graft/base/error.hpp"

namespace graft::runtime_config {

// `text` as a TOML basic string: quotes, backslashes and control
// characters escaped.
std::string toml_string(const std::string& text);

// graft's file with `body` (before: what is there now, nullopt if nothing).
Result<std::string> owned_file_configured(const std::optional<std::string>& before, const std::string& body);

// nullopt (the file goes) when it is graft's or absent.
Result<std::optional<std::string>> owned_file_removed(const std::optional<std::string>& before);

}  // namespace graft::runtime_config
