// SPDX-License-Identifier: Apache-2.0
// `graft policy import NAME [FILE]`: another tool's configuration as a graft
// site policy (site_import/import_site_policy.hpp), written whole to
// --output or stdout, with one summary line on stderr.
#include <cstdio>

#include "commands/command_steps.hpp"
#include "graft/engine/install_dirs.hpp"
#include "graft/base/replace_file.hpp"
#include "site_import/import_site_policy.hpp"

namespace graft::commands {

Result<int> run_policy_import(const GlobalOptions& global, const PolicyImportOptions& options) {
  PolicySearch search;
  search.policy_dirs = global.policy_dirs;
  search.policy_dirs.push_back(install_dirs().policies);
  auto imported = site_import::import_site_policy(options.importer, options.file, search);
  if (!imported) return imported.error();
  if (options.output == "-")
    std::fputs(imported->text.c_str(), stdout);
  else if (auto status = replace_file(options.output, imported->text); !status)
    return status.error();
  std::fprintf(stderr, "graft: imported %s with importer '%s': %s\n", imported->source.c_str(),
               options.importer.c_str(), imported->summary.c_str());
  return exit_ok;
}

}  // namespace graft::commands
