// The compiled form of [discovery] version_pattern (policy.hpp names it
// only by a forward declaration: <regex> is a heavy header).
#pragma once

#include <regex>

namespace graft {

struct VersionRegex {
  std::regex pattern;
};

}  // namespace graft
