// SPDX-License-Identifier: Apache-2.0
// One stderr logger per front end, named for it (graft/engine/logging.hpp).
#include "graft/engine/logging.hpp"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace graft {

void setup_logging(const std::string& program, const std::string& level) {
  auto logger = spdlog::stderr_logger_st(program);
  logger->set_pattern(program + ": %l: %v");
  spdlog::set_default_logger(logger);
  spdlog::set_level(spdlog::level::from_str(level));
}

}  // namespace graft
