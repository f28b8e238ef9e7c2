// SPDX-License-Identifier: Apache-2.0
// `graft verify ID`: where container ID runs and what its bundle is, asked
// of the OCI runtime that started it with the runtime spec's own state
// operation (`RUNTIME [--root DIR] state ID`, which runc, crun and youki
// answer with the OCI state a hook gets on stdin). graft then plans from
// that state exactly as `graft hook` did. The runtime is the policy's
// [runtime] path (what graft-runtime trusts already) unless --runtime names
// another; a bare name is looked up in the system directories only, never
// in the caller's PATH or working directory. It runs with an empty
// environment, stdin on /dev/null, dies with graft, and its output is read
// with a bound.
#pragma once

#include <string>

#include "graft/base/error.hpp"
#include "request/oci_state.hpp"

namespace graft {

struct RuntimeStateQuery {
  std::string runtime;  // a name or an absolute path
  std::string root;     // the runtime's --root (its state directory); "" for its default
  std::string id;
};

// The state the runtime reports, checked as a hook's stdin is
// (parse_oci_state) and for the id asked. A container that is not running
// has no pid, which is refused.
Result<OciState> query_runtime_state(const RuntimeStateQuery& query);

// Where `runtime` is: itself when it names a path, else the first of
// /usr/local/sbin, /usr/local/bin, /usr/sbin, /usr/bin, /sbin, /bin that
// holds an executable of that name.
Result<std::string> find_runtime_binary(const std::string& runtime);

}  // namespace graft
