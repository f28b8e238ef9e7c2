// SPDX-License-Identifier: Apache-2.0
// Finding, reading and replacing the spec a runtime creates a container
// from: <bundle>/config.json, or for crun a file its --config names. The
// bundle belongs to the engine that called the runtime; graft replaces the
// file whole (a temporary file beside it, renamed over it) so the runtime
// never reads half of it, with the mode and owner the engine gave it.
#pragma once

#include <string>

#include "graft/base/error.hpp"

namespace graft::runtime {

struct BundleFiles {
  std::string bundle;  // absolute, every symlink resolved: the directory the runtime works in
  std::string config;  // the spec the runtime reads
  // Whether `config` is <bundle>/config.json itself: the file graft's hooks
  // read when the runtime runs them, so the only one graft may edit.
  bool config_in_bundle = true;
};

// The files of a bundle as the runtime finds them: `bundle` ("" is the
// current directory) resolved as crun's realpath and runc's chdir resolve
// it; `config` (crun's --config, "" when not given) as crun resolves it:
// "config.json" is the bundle's, another relative path is relative to the
// current directory, not to the bundle.
Result<BundleFiles> bundle_files(const std::string& bundle, const std::string& config);

// The text of the spec, size-capped; a symlink at its name is an error.
Result<std::string> read_bundle_config(const BundleFiles& files);

// Replaces the spec with `text`.
Status replace_bundle_config(const BundleFiles& files, const std::string& text);

}  // namespace graft::runtime
