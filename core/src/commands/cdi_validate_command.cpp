// SPDX-License-Identifier: Apache-2.0
// `graft cdi validate FILE`: checks a CDI spec (cdi/cdi_validate.hpp) and
// prints each problem on its own line, prefixed with the file; exit 1 when
// there is one. JSON is read as JSON; anything else as YAML
// (cdi/cdi_yaml.hpp), the other format the CDI spec allows.
#include <cstdio>

#include "cdi/cdi_validate.hpp"
#include "cdi/spec_origin.hpp"
#include "commands/command_steps.hpp"
#include "graft/base/bounded_read.hpp"

namespace graft::commands {

Result<int> run_cdi_validate(const GlobalOptions&, const std::string& file) {
  auto text = read_file(file, 16 << 20);
  if (!text) return text.error();
  auto document = cdi::parse_spec_text(*text);
  if (!document) return document.error().context(file);
  auto problems = cdi::validate_spec(*document);
  for (const auto& problem : problems) std::fprintf(stderr, "graft: %s: %s\n", file.c_str(), one_line(problem).c_str());
  if (!problems.empty()) return exit_error;
  std::printf("%s: valid CDI spec\n", file.c_str());
  return exit_ok;
}

}  // namespace graft::commands
