// SPDX-License-Identifier: Apache-2.0
// CDI name rules, kept in one place so generate and validate agree.
#include "cdi_format/cdi_names.hpp"

namespace graft::cdi {

namespace {

bool is_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alphanumeric(char c) { return is_letter(c) || is_digit(c); }

struct NameRule {
  std::string_view part;          // "vendor", "class", "device name"
  std::string_view inner_extra;   // allowed between the ends besides alphanumerics
  std::size_t max_length;         // 0: no limit
  bool may_start_with_digit;
};

Status check(std::string_view value, const NameRule& rule) {
  if (value.empty()) return make_error("CDI {} is empty", rule.part);
  if (rule.max_length != 0 && value.size() > rule.max_length) {
    return make_error("CDI {} '{}' is {} characters long, more than {}", rule.part, value,
                      value.size(), rule.max_length);
  }
  char first = value.front();
  if (!(is_letter(first) || (rule.may_start_with_digit && is_digit(first)))) {
    return make_error("CDI {} '{}' must start with a letter{}", rule.part, value,
                      rule.may_start_with_digit ? " or digit" : "");
  }
  for (char c : value.substr(1)) {
    if (!is_alphanumeric(c) && rule.inner_extra.find(c) == std::string_view::npos) {
      return make_error("CDI {} '{}' contains '{}'; allowed are letters, digits and any of '{}'",
                        rule.part, value, c, rule.inner_extra);
    }
  }
  if (!is_alphanumeric(value.back())) {
    return make_error("CDI {} '{}' must end with a letter or digit", rule.part, value);
  }
  return ok_status();
}

}  // namespace

Status validate_vendor(std::string_view vendor) {
  return check(vendor, {"vendor", "_-.", 253, false});
}

Status validate_class(std::string_view klass) {
  return check(klass, {"class", "_-.", 63, false});
}

Status validate_device_name(std::string_view device) {
  return check(device, {"device name", "_-.:", 0, true});
}

Result<QualifiedName> parse_kind(std::string_view kind) {
  auto where = [kind] { return fmt::format("CDI kind '{}' (vendor/class)", kind); };
  auto slash = kind.find('/');
  if (slash == std::string_view::npos) return make_error("{}: '{}' has no '/'", where(), kind);
  QualifiedName name{std::string(kind.substr(0, slash)), std::string(kind.substr(slash + 1)), {}};
  if (auto status = validate_vendor(name.vendor); !status) return status.error().context(where());
  if (auto status = validate_class(name.klass); !status) return status.error().context(where());
  return name;
}

std::vector<Feature> features_of(const QualifiedName& name) {
  std::vector<Feature> features;
  if (name.klass.find('.') != std::string::npos) features.push_back(Feature::dotted_class_name);
  if (!name.device.empty() && is_digit(name.device.front())) {
    features.push_back(Feature::device_name_leading_digit);
  }
  return features;
}

}  // namespace graft::cdi
