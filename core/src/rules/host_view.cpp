// SPDX-License-Identifier: Apache-2.0
// `host`: the Inventory as rules see it (driver_version(s), gpus with their
// partitions, partition_caps, char_majors, class_minors).
#include "rules/view_kinds.hpp"

namespace graft::rules {

namespace {

constexpr const char* kHostFamily = "host";

constexpr ViewType kUnsignedMapView = view_type<Map<unsigned, push_unsigned>>(kHostFamily);
constexpr ViewType kVersionMapView = view_type<Map<std::string, push_string>>(kHostFamily);

// host.partition_caps: name -> minor, read as Map reads a std::map.
struct PartitionCapsKind {
  static const PartitionCaps& of(const void* data) { return *static_cast<const PartitionCaps*>(data); }
  static void index(lua_State* L, const void* data) {
    std::string_view key = string_key(L);
    auto minor = key.data() == nullptr ? std::nullopt : of(data).find(key);
    if (!minor) return lua_pushnil(L);
    push_unsigned(L, *minor);
  }
  static lua_Integer length(const void*) { return 0; }
  static int next(lua_State* L, const void* data) {
    const PartitionCaps& caps = of(data);
    auto it = caps.begin();
    if (!lua_isnil(L, 2)) {
      std::string_view key = string_key(L);
      if (key.data() == nullptr || !caps.contains(key)) return 0;
      it = caps.after(key);
    }
    if (it == caps.end()) return 0;
    auto [name, minor] = *it;
    lua_pushlstring(L, name.data(), name.size());
    push_unsigned(L, minor);
    return 2;
  }
};
constexpr ViewType kPartitionCapsView = view_type<PartitionCapsKind>(kHostFamily);

// host.class_minors["name"]: the minors of a per-minor class's nodes found.
constexpr ViewType kMinorListView = view_type<List<unsigned, push_unsigned>>(kHostFamily);
void push_minor_list(lua_State* L, const std::vector<unsigned>& minors) { push_view(L, kMinorListView, &minors); }
constexpr ViewType kClassMinorsView = view_type<Map<std::vector<unsigned>, push_minor_list>>(kHostFamily);

constexpr RecordField<Partition> kPartitionFields[] = {
    {"index", [](lua_State* L, const Partition& p) { push_unsigned(L, p.index); }},
    {"gi", [](lua_State* L, const Partition& p) { push_unsigned(L, p.gi); }},
    {"ci", [](lua_State* L, const Partition& p) { push_unsigned(L, p.ci); }},
    {"uuid", [](lua_State* L, const Partition& p) { push_string(L, p.uuid); }},
};
constexpr ViewType kPartitionView = view_type<Record<Partition, kPartitionFields>>(kHostFamily);

void push_partition(lua_State* L, const Partition& p) { push_view(L, kPartitionView, &p); }
constexpr ViewType kPartitionListView = view_type<List<Partition, push_partition>>(kHostFamily);

constexpr RecordField<Gpu> kGpuFields[] = {
    {"index", [](lua_State* L, const Gpu& g) { push_unsigned(L, g.index); }},
    {"vendor", [](lua_State* L, const Gpu& g) { push_string(L, g.vendor); }},
    {"vendor_index", [](lua_State* L, const Gpu& g) { push_unsigned(L, g.vendor_index); }},
    {"minor", [](lua_State* L, const Gpu& g) { push_unsigned(L, g.minor); }},
    {"uuid", [](lua_State* L, const Gpu& g) { push_string(L, g.uuid); }},
    {"bus_id", [](lua_State* L, const Gpu& g) { push_string(L, g.bus_id); }},
    {"model", [](lua_State* L, const Gpu& g) { push_string(L, g.model); }},
    {"partitions", [](lua_State* L, const Gpu& g) { push_view(L, kPartitionListView, &g.partitions); }},
};
constexpr ViewType kGpuView = view_type<Record<Gpu, kGpuFields>>(kHostFamily);

void push_gpu(lua_State* L, const Gpu& gpu) { push_view(L, kGpuView, &gpu); }
constexpr ViewType kGpuListView = view_type<List<Gpu, push_gpu>>(kHostFamily);

constexpr RecordField<Inventory> kHostFields[] = {
    {"driver_version", [](lua_State* L, const Inventory& i) { push_string(L, i.driver_version); }},
    {"driver_versions", [](lua_State* L, const Inventory& i) { push_view(L, kVersionMapView, &i.driver_versions); }},
    {"gpus", [](lua_State* L, const Inventory& i) { push_view(L, kGpuListView, &i.gpus); }},
    {"partition_caps",
     [](lua_State* L, const Inventory& i) { push_view(L, kPartitionCapsView, &i.partition_caps); }},
    {"char_majors", [](lua_State* L, const Inventory& i) { push_view(L, kUnsignedMapView, &i.char_majors); }},
    {"class_minors",
     [](lua_State* L, const Inventory& i) { push_view(L, kClassMinorsView, &i.class_minors); }},
};
constexpr ViewType kHostView = view_type<Record<Inventory, kHostFields>>(kHostFamily);

}  // namespace

void push_host_view(lua_State* L, const Inventory& inventory) { push_view(L, kHostView, &inventory); }

}  // namespace graft::rules
