// `host`: the Inventory as rules see it (driver_version, gpus with their
// partitions, partition_caps, char_majors).
#include "rules/view_kinds.hpp"

namespace graft::rules {

namespace {

constexpr const char* kHostFamily = "host";

constexpr ViewType kUnsignedMapView = view_type<Map<unsigned, push_unsigned>>(kHostFamily);

constexpr RecordField<Partition> kPartitionFields[] = {
    {"index", [](lua_State* L, const Partition& p) { push_unsigned(L, p.index); }},
    {"gi", [](lua_State* L, const Partition& p) { push_unsigned(L, p.gi); }},
    {"ci", [](lua_State* L, const Partition& p) { push_unsigned(L, p.ci); }},
};
constexpr ViewType kPartitionView = view_type<Record<Partition, kPartitionFields>>(kHostFamily);

void push_partition(lua_State* L, const Partition& p) { push_view(L, kPartitionView, &p); }
constexpr ViewType kPartitionListView = view_type<List<Partition, push_partition>>(kHostFamily);

constexpr RecordField<Gpu> kGpuFields[] = {
    {"index", [](lua_State* L, const Gpu& g) { push_unsigned(L, g.index); }},
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
    {"gpus", [](lua_State* L, const Inventory& i) { push_view(L, kGpuListView, &i.gpus); }},
    {"partition_caps",
     [](lua_State* L, const Inventory& i) { push_view(L, kUnsignedMapView, &i.partition_caps); }},
    {"char_majors", [](lua_State* L, const Inventory& i) { push_view(L, kUnsignedMapView, &i.char_majors); }},
};
constexpr ViewType kHostView = view_type<Record<Inventory, kHostFields>>(kHostFamily);

}  // namespace

void push_host_view(lua_State* L, const Inventory& inventory) { push_view(L, kHostView, &inventory); }

}  // namespace graft::rules
