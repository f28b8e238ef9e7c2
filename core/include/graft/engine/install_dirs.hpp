// SPDX-License-Identifier: Apache-2.0
// Where graft finds what it ships (the vendor policies, the plugins). An
// install may sit under another prefix than the one configured
// (`cmake --install build --prefix /usr` after configuring for /usr/local,
// or a DESTDIR staged into a package), so the directories are looked up
// next to the running binary first (<bindir>/../share/graft/policies, ...)
// and the configured absolute paths are the fallback (a binary run from
// the build tree).
#pragma once

#include <string>

namespace graft {

struct InstallDirs {
  std::string policies;  // the shipped policies, for include = ["name"]
  std::string plugins;   // the default [plugins] dir
};

// The site policy `graft` and `graft-runtime` read when none is named:
// <sysconf_dir>/graft.toml (/etc/graft/graft.toml).
std::string site_policy_path();

// The node's allow file graft reads when told none
// (/etc/graft-node/allow.conf): what widens the policy boundary on this node.
std::string node_allow_path();

// An installed documentation page, e.g. doc_page("policy.md") is
// /usr/share/doc/graft/policy.md: what --help and errors point a reader to.
std::string doc_page(const char* page);

// The directory of the running executable (/proc/self/exe), "" when it
// cannot be read. graft-runtime finds `graft` there.
std::string executable_dir();

// For the running executable; computed once.
const InstallDirs& install_dirs();

// The rule itself: `relative` below `exe_dir` when `exists` says that
// directory is there, else `configured`.
std::string installed_dir(const std::string& exe_dir, const std::string& relative,
                          const std::string& configured, bool (*exists)(const std::string&));

}  // namespace graft
