// SPDX-License-Identifier: Apache-2.0
#include "cdi/cdi_yaml.hpp"

#include <regex>

#include <yaml-cpp/yaml.h>

namespace graft::cdi {
namespace {

// Far beyond any CDI spec (one device is a few dozen nodes: a 64-GPU host
// with MIG is some tens of thousands), far below what would hurt: a few
// alias levels of a bomb pass it.
constexpr std::size_t kMaxNodes = 200'000;
constexpr int kMaxDepth = 64;

struct Conversion {
  std::size_t nodes = 0;
};

// YAML 1.2 core schema, for plain (untagged, unquoted) scalars.
nlohmann::json core_scalar(const std::string& text) {
  static const std::regex null_form("~|null|Null|NULL|");
  static const std::regex true_form("true|True|TRUE"), false_form("false|False|FALSE");
  static const std::regex decimal("[-+]?[0-9]+"), octal("0o[0-7]+"), hex("0x[0-9a-fA-F]+");
  static const std::regex real("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
  if (std::regex_match(text, null_form)) return nullptr;
  if (std::regex_match(text, true_form)) return true;
  if (std::regex_match(text, false_form)) return false;
  try {
    if (std::regex_match(text, decimal)) return std::stoll(text);
    if (std::regex_match(text, octal)) return std::stoll(text.substr(2), nullptr, 8);
    if (std::regex_match(text, hex)) return std::stoll(text.substr(2), nullptr, 16);
    if (std::regex_match(text, real)) return std::stod(text);
  } catch (const std::out_of_range&) {
    return text;  // beyond a 64-bit integer: kept as written, the validator judges it
  }
  return text;
}

Result<nlohmann::json> convert(const YAML::Node& node, Conversion& conversion, int depth) {
  if (++conversion.nodes > kMaxNodes)
    return make_error("more than {} YAML nodes once aliases are expanded", kMaxNodes);
  if (depth > kMaxDepth) return make_error("YAML nested deeper than {} levels", kMaxDepth);
  switch (node.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null: return nlohmann::json(nullptr);
    case YAML::NodeType::Scalar:
      return node.Tag() == "?" ? core_scalar(node.Scalar()) : nlohmann::json(node.Scalar());
    case YAML::NodeType::Sequence: {
      auto out = nlohmann::json::array();
      for (const auto& item : node) {
        auto value = convert(item, conversion, depth + 1);
        if (!value) return value;
        out.push_back(std::move(*value));
      }
      return out;
    }
    case YAML::NodeType::Map: {
      auto out = nlohmann::json::object();
      for (const auto& entry : node) {
        if (!entry.first.IsScalar()) return make_error("line {}: a mapping key that is not a scalar",
                                                       entry.first.Mark().line + 1);
        auto value = convert(entry.second, conversion, depth + 1);
        if (!value) return value;
        out[entry.first.Scalar()] = std::move(*value);
      }
      return out;
    }
  }
  return nlohmann::json(nullptr);
}

}  // namespace

Result<nlohmann::json> parse_yaml(const std::string& text) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& error) {
    return make_error("line {}, column {}: {}", error.mark.line + 1, error.mark.column + 1, error.msg);
  }
  Conversion conversion;
  return convert(root, conversion, 0);
}

}  // namespace graft::cdi
