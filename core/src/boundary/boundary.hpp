// SPDX-License-Identifier: Apache-2.0
// The policy boundary: what a policy may take from the host, whoever wrote
// it. The shipped vendor policies declare their places (policy/places.hpp),
// graft has its own state directories, and the node's allow file widens
// both; nothing else does. A host path is judged by what it is and where it
// really is, never by the key that named it, so a key added later cannot
// reopen the boundary (docs/security.md, "The policy boundary").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "policy/places.hpp"
#include "policy/policy.hpp"

namespace graft {

// graft's own directories for what it writes as root: claims and audit logs.
inline constexpr const char* kGraftStateDirs[] = {"/run/graft", "/var/log/graft"};

// The places a policy's plans may use: every vendor's, graft's own state
// directories, and the node's.
class Boundary {
 public:
  explicit Boundary(const Policy& policy);

  const Places& places() const { return places_; }

  // `path` (absolute, lexically normal) is one of `places` or matches one
  // of their patterns (fnmatch, FNM_PATHNAME).
  static bool matches(const std::vector<Place>& places, std::string_view path);
  // `path` names exactly a non-pattern entry of `places`.
  static bool names_exactly(const std::vector<Place>& places, std::string_view path);
  // `path` is one of `places` or inside one of them.
  static bool within(const std::vector<Place>& places, std::string_view path);

 private:
  Places places_;
};

// Why a path outside the boundary is refused, and what would widen it.
inline constexpr const char* kOutsideBoundary =
    "no shipped vendor policy declares it and the node's allow file does not allow it";

}  // namespace graft
