// `graft cdi validate FILE`: checks a CDI spec (cdi/cdi_validate.hpp) and
// prints each problem on its own line, prefixed with the file; exit 1 when
// there is one. JSON only for now (JSON is also valid YAML); a YAML file
// in block style is refused as unreadable, not judged.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "cdi/cdi_validate.hpp"
#include "cli/commands.hpp"
#include "graft/base/bounded_read.hpp"

namespace graft::cli {

Result<int> run_cdi_validate(const GlobalOptions&, const std::string& file) {
  auto text = read_file(file, 16 << 20);
  if (!text) return text.error();
  auto document = nlohmann::json::parse(*text, nullptr, false);
  if (document.is_discarded())
    return make_error("{}: not a JSON document (block-style YAML is not read yet; `graft cdi generate "
                      "--format json` writes what this checks)",
                      file);
  auto problems = cdi::validate_spec(document);
  for (const auto& problem : problems) std::fprintf(stderr, "graft: %s: %s\n", file.c_str(), one_line(problem).c_str());
  if (!problems.empty()) return exit_error;
  std::printf("%s: valid CDI spec\n", file.c_str());
  return exit_ok;
}

}  // namespace graft::cli
