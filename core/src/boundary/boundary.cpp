// SPDX-License-Identifier: Apache-2.0
#include "boundary/boundary.hpp"

#include <fnmatch.h>

#include <algorithm>

namespace graft {
namespace {

bool is_pattern(std::string_view path) { return path.find_first_of("*?[") != std::string_view::npos; }

}  // namespace

Boundary::Boundary(const Policy& policy) {
  for (const auto& [_, vendor] : policy.vendors) places_.append(vendor.places);
  for (const char* dir : kGraftStateDirs) places_.state_dirs.push_back(Place{dir, Origin{}});
  places_.append(policy.node_places);
}

bool Boundary::matches(const std::vector<Place>& places, std::string_view path) {
  std::string text(path);
  return std::any_of(places.begin(), places.end(), [&](const Place& place) {
    return ::fnmatch(place.path.c_str(), text.c_str(), FNM_PATHNAME | FNM_PERIOD) == 0;
  });
}

bool Boundary::names_exactly(const std::vector<Place>& places, std::string_view path) {
  return std::any_of(places.begin(), places.end(),
                     [&](const Place& place) { return !is_pattern(place.path) && place.path == path; });
}

bool Boundary::within(const std::vector<Place>& places, std::string_view path) {
  return std::any_of(places.begin(), places.end(), [&](const Place& place) {
    std::string_view dir = place.path;
    while (dir.size() > 1 && dir.ends_with('/')) dir.remove_suffix(1);
    return path == dir || (path.starts_with(dir) && (dir == "/" || path[dir.size()] == '/'));
  });
}

}  // namespace graft
