// `graft cdi validate FILE`: not written yet (docs/cdi.md).
#include "cli/commands.hpp"

namespace graft::cli {

Result<int> run_cdi_validate(const GlobalOptions&, const std::string& file) {
  return make_error("{}: graft cdi validate is not implemented yet", file);
}

}  // namespace graft::cli
