// SPDX-License-Identifier: Apache-2.0
// CDI version table: which released cdiVersion introduced which feature.
#include "cdi_format/cdi_version.hpp"

#include <algorithm>
#include <array>
#include <charconv>

namespace graft::cdi {

namespace {

constexpr std::array<Version, 10> kVersions{{
    {0, 1, 0}, {0, 2, 0}, {0, 3, 0}, {0, 4, 0}, {0, 5, 0},
    {0, 6, 0}, {0, 7, 0}, {0, 8, 0}, {1, 0, 0}, {1, 1, 0},
}};

struct FeatureFact {
  Feature feature;
  std::string_view name;
  Version introduced;
};

// 0.3.0 is "Initial tagged release of Spec": env and hooks (device-level,
// with env) are in its SPEC.md; nothing older can be checked.
constexpr std::array<FeatureFact, 12> kFacts{{
    {Feature::container_env, "containerEdits.env", {0, 3, 0}},
    {Feature::device_hooks, "device-level hooks", {0, 3, 0}},
    {Feature::hook_env, "hooks[].env", {0, 3, 0}},
    {Feature::mount_type, "mounts[].type", {0, 4, 0}},
    {Feature::device_node_host_path, "deviceNodes[].hostPath", {0, 5, 0}},
    {Feature::device_name_leading_digit, "a device name starting with a digit", {0, 5, 0}},
    {Feature::annotations, "annotations", {0, 6, 0}},
    {Feature::dotted_class_name, "a '.' in the class name", {0, 6, 0}},
    {Feature::intel_rdt, "containerEdits.intelRdt", {0, 7, 0}},
    {Feature::additional_gids, "containerEdits.additionalGids", {0, 7, 0}},
    {Feature::net_devices, "containerEdits.netDevices", {1, 1, 0}},
    {Feature::intel_rdt_schemata, "intelRdt.schemata/enableMonitoring", {1, 1, 0}},
}};

const FeatureFact& fact(Feature feature) {
  return *std::find_if(kFacts.begin(), kFacts.end(),
                       [feature](const FeatureFact& f) { return f.feature == feature; });
}

bool read_number(std::string_view& text, int& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (ec != std::errc{} || end == text.data()) return false;
  text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  return true;
}

bool read_dot(std::string_view& text) {
  if (text.empty() || text.front() != '.') return false;
  text.remove_prefix(1);
  return true;
}

}  // namespace

Version earliest_version() { return {0, 3, 0}; }

std::string to_string(Version version) {
  return fmt::format("{}.{}.{}", version.major, version.minor, version.patch);
}

Result<Version> parse_version(std::string_view text) {
  std::string_view rest = text;
  if (rest.starts_with('v')) rest.remove_prefix(1);
  Version version;
  bool parsed = read_number(rest, version.major) && read_dot(rest) &&
                read_number(rest, version.minor) && read_dot(rest) &&
                read_number(rest, version.patch) && rest.empty();
  if (!parsed) return make_error("cdiVersion '{}' is not MAJOR.MINOR.PATCH", text);
  if (std::find(kVersions.begin(), kVersions.end(), version) == kVersions.end()) {
    return make_error("cdiVersion '{}' is not a released CDI spec version (0.1.0 to {})",
                      text, to_string(kVersions.back()));
  }
  return version;
}

std::string_view feature_name(Feature feature) { return fact(feature).name; }

Version introduced_in(Feature feature) { return fact(feature).introduced; }

bool supports(Version version, Feature feature) { return version >= introduced_in(feature); }

Version minimum_version(std::span<const Feature> features) {
  Version minimum = earliest_version();
  for (Feature feature : features) minimum = std::max(minimum, introduced_in(feature));
  return minimum;
}

Status check_supports(Version version, std::span<const Feature> features) {
  for (Feature feature : features) {
    if (!supports(version, feature)) {
      return make_error("cdiVersion {} does not support {} (needs {} or later)",
                        to_string(version), feature_name(feature),
                        to_string(introduced_in(feature)));
    }
  }
  return ok_status();
}

}  // namespace graft::cdi
