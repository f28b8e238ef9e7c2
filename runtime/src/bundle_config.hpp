// Reading and replacing a bundle's config.json. The bundle belongs to the
// engine that called the runtime; graft replaces the file whole (a temporary
// file beside it, renamed over it) so the runtime never reads half of it,
// with the mode and owner the engine gave it.
#pragma once

#include <string>

#include "graft/base/error.hpp"

namespace graft::runtime {

// `bundle` made absolute against the current directory ("" is the current
// directory itself, as runc takes it).
Result<std::string> absolute_bundle(const std::string& bundle);

// The text of <bundle>/config.json (bundle absolute), size-capped.
Result<std::string> read_bundle_config(const std::string& bundle);

// Replaces <bundle>/config.json with `text`.
Status replace_bundle_config(const std::string& bundle, const std::string& text);

}  // namespace graft::runtime
