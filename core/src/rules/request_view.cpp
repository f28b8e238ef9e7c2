// SPDX-License-Identifier: Apache-2.0
// `req`: the Request as rules see it (id, bundle, rootfs, privileged, env,
// annotations, mounts, trusted).
#include "rules/view_kinds.hpp"

namespace graft::rules {

namespace {

constexpr const char* kRequestFamily = "request";

using OptionList = List<std::string, push_string>;
using StringMap = Map<std::string, push_string>;
using BoolMap = Map<bool, push_bool>;

constexpr ViewType kOptionListView = view_type<OptionList>(kRequestFamily);
constexpr ViewType kStringMapView = view_type<StringMap>(kRequestFamily);
constexpr ViewType kBoolMapView = view_type<BoolMap>(kRequestFamily);

constexpr RecordField<RequestMount> kMountFields[] = {
    {"destination", [](lua_State* L, const RequestMount& m) { push_string(L, m.destination); }},
    {"source", [](lua_State* L, const RequestMount& m) { push_string(L, m.source); }},
    {"type", [](lua_State* L, const RequestMount& m) { push_string(L, m.type); }},
    {"options", [](lua_State* L, const RequestMount& m) { push_view(L, kOptionListView, &m.options); }},
};
constexpr ViewType kMountView = view_type<Record<RequestMount, kMountFields>>(kRequestFamily);

void push_mount(lua_State* L, const RequestMount& mount) { push_view(L, kMountView, &mount); }
constexpr ViewType kMountListView = view_type<List<RequestMount, push_mount>>(kRequestFamily);

constexpr RecordField<RequestFacts> kRequestFields[] = {
    {"id", [](lua_State* L, const RequestFacts& f) { push_string(L, f.request->container_id); }},
    {"bundle", [](lua_State* L, const RequestFacts& f) { push_string(L, f.request->bundle); }},
    {"rootfs", [](lua_State* L, const RequestFacts& f) { push_string(L, f.request->rootfs); }},
    {"privileged", [](lua_State* L, const RequestFacts& f) { push_bool(L, f.request->privileged); }},
    {"env", [](lua_State* L, const RequestFacts& f) { push_view(L, kStringMapView, &f.request->env); }},
    {"annotations",
     [](lua_State* L, const RequestFacts& f) { push_view(L, kStringMapView, &f.request->annotations); }},
    {"mounts", [](lua_State* L, const RequestFacts& f) { push_view(L, kMountListView, &f.request->mounts); }},
    {"trusted", [](lua_State* L, const RequestFacts& f) { push_view(L, kBoolMapView, &f.trusted); }},
};
constexpr ViewType kRequestView = view_type<Record<RequestFacts, kRequestFields>>(kRequestFamily);

}  // namespace

RequestFacts request_facts(const Request& request, const Policy& policy) {
  RequestFacts facts;
  facts.request = &request;
  // The channels the documented rules ask about are always present.
  for (const char* channel : {"env", "volume-mounts", "annotations"}) facts.trusted[channel] = false;
  const auto& trusted = request.privileged ? policy.trusted_privileged : policy.trusted_unprivileged;
  for (const auto& channel : trusted) facts.trusted[channel] = true;
  return facts;
}

void push_request_view(lua_State* L, const RequestFacts& facts) { push_view(L, kRequestView, &facts); }

}  // namespace graft::rules
