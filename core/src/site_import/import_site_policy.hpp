// SPDX-License-Identifier: Apache-2.0
// `graft policy import NAME FILE` without the command line: read the foreign
// file (bounded), apply the importer, render the site policy, and check the
// result as `graft policy check` would (the real loader, the rule files, the
// sample requests), so a generated policy that graft would refuse is never
// handed out.
#pragma once

#include <string>

#include "graft/base/error.hpp"
#include "policy/policy.hpp"
#include "site_import/import_config.hpp"

namespace graft::site_import {

struct ImportedPolicy {
  std::string source;  // the file imported
  SiteImport result;
  std::string text;     // the site policy
  std::string summary;  // import_summary()
};

// `file` empty: the importer's default file. `search` finds both the importer
// and the policy the generated file includes.
Result<ImportedPolicy> import_site_policy(const std::string& importer_name, const std::string& file,
                                          const PolicySearch& search);

// Loads `text` as a site policy (written to a private temp file) and checks it
// as `graft policy check` does.
Status check_site_policy_text(const std::string& text, const PolicySearch& search);

}  // namespace graft::site_import
