// SPDX-License-Identifier: Apache-2.0
#include "cdi/cdi_render.hpp"

namespace graft::cdi {
namespace {

using OrderedJson = nlohmann::ordered_json;  // keys in the order the CDI spec shows them

OrderedJson node_json(const DeviceNodeEdit& node) {
  OrderedJson out = {{"path", node.path}};
  if (!node.host_path.empty()) out["hostPath"] = node.host_path;
  out["type"] = std::string(1, node.type);
  out["major"] = node.major;
  out["minor"] = node.minor;
  return out;
}

OrderedJson hook_json(const SpecHook& hook) {
  return {{"hookName", hook.hook_name}, {"path", hook.command.path}, {"args", hook.command.args},
          {"env", hook.command.env}};
}

OrderedJson edits_json(const SpecEdits& edits) {
  OrderedJson out = OrderedJson::object();
  if (!edits.env.empty()) {
    OrderedJson env = OrderedJson::array();
    for (const auto& entry : edits.env) env.push_back(entry.name + "=" + entry.value);
    out["env"] = env;
  }
  if (!edits.device_nodes.empty()) {
    OrderedJson nodes = OrderedJson::array();
    for (const auto& node : edits.device_nodes) nodes.push_back(node_json(node));
    out["deviceNodes"] = nodes;
  }
  if (!edits.hooks.empty()) {
    OrderedJson hooks = OrderedJson::array();
    for (const auto& hook : edits.hooks) hooks.push_back(hook_json(hook));
    out["hooks"] = hooks;
  }
  if (!edits.mounts.empty()) {
    OrderedJson mounts = OrderedJson::array();
    for (const auto& mount : edits.mounts)
      mounts.push_back({{"hostPath", mount.host_path}, {"containerPath", mount.container_path},
                        {"options", mount.options}});
    out["mounts"] = mounts;
  }
  return out;
}

std::string scalar(const OrderedJson& value) { return value.dump(-1, ' ', false, OrderedJson::error_handler_t::replace); }

bool is_block(const OrderedJson& value) {
  return (value.is_object() || value.is_array()) && !value.empty();
}

void emit(const OrderedJson& value, int indent, std::string& out);

// A mapping's entries at `indent`; the first may continue a "- " line.
void emit_mapping(const OrderedJson& object, int indent, bool first_inline, std::string& out) {
  bool first = true;
  for (const auto& [key, item] : object.items()) {
    if (!(first && first_inline)) out += std::string(indent, ' ');
    first = false;
    out += scalar(key) + ":";
    if (is_block(item)) {
      out += "\n";
      emit(item, item.is_array() ? indent : indent + 2, out);
    } else {
      out += " " + scalar(item) + "\n";
    }
  }
}

void emit(const OrderedJson& value, int indent, std::string& out) {
  if (value.is_object()) return emit_mapping(value, indent, false, out);
  for (const auto& item : value) {  // a sequence: "- " at indent
    out += std::string(indent, ' ') + "- ";
    if (item.is_object() && !item.empty())
      emit_mapping(item, indent + 2, true, out);
    else if (is_block(item)) {
      out += "\n";
      emit(item, indent + 2, out);
    } else {
      out += scalar(item) + "\n";
    }
  }
}

}  // namespace

OrderedJson spec_json(const Spec& spec) {
  OrderedJson devices = OrderedJson::array();
  for (const auto& device : spec.devices)
    devices.push_back({{"name", device.name}, {"containerEdits", edits_json(device.edits)}});
  OrderedJson out = {{"cdiVersion", to_string(spec.version)}, {"kind", spec.kind}, {"devices", devices}};
  if (!spec.edits.empty()) out["containerEdits"] = edits_json(spec.edits);
  return out;
}

std::string render_json(const Spec& spec) { return spec_json(spec).dump(2) + "\n"; }

std::string to_yaml(const OrderedJson& document) {
  if (!is_block(document)) return scalar(document) + "\n";
  std::string out;
  emit(document, 0, out);
  return out;
}

std::string render_yaml(const Spec& spec) { return "---\n" + to_yaml(spec_json(spec)); }

}  // namespace graft::cdi
