// SPDX-License-Identifier: Apache-2.0
// `policy`: the names rules may refer to and the free-form [data] table,
// which rules read as nested read-only tables and arrays. A read of a
// top-level data key that [data_schema] does not declare is noted (with the
// rule file's line) while a rule runs with its activity recorded.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "sandbox/place.hpp"
#include "rules/view_kinds.hpp"

namespace graft::rules {

namespace {

using nlohmann::json;

constexpr const char* kPolicyFamily = "policy";

void push_json(lua_State* L, const json& value);

// Objects are keyed by string, arrays by 1-based position.
struct Json {
  static const json& of(const void* data) { return *static_cast<const json*>(data); }
  static void index(lua_State* L, const void* data) {
    const json& value = of(data);
    if (value.is_array()) {
      lua_Integer i = list_position(L, value.size());
      if (i < 0) return lua_pushnil(L);
      return push_json(L, value[static_cast<std::size_t>(i)]);
    }
    std::string_view key = string_key(L);
    auto it = key.data() == nullptr ? value.end() : value.find(key);
    if (it == value.end()) return lua_pushnil(L);
    push_json(L, *it);
  }
  static lua_Integer length(const void* data) {
    const json& value = of(data);
    return value.is_array() ? static_cast<lua_Integer>(value.size()) : 0;
  }
  static int next(lua_State* L, const void* data) {
    const json& value = of(data);
    if (value.is_array()) return next_in_array(L, value);
    auto it = value.begin();
    if (!lua_isnil(L, 2)) {
      std::string_view key = string_key(L);
      if (key.data() == nullptr) return 0;
      it = value.find(key);
      if (it == value.end()) return 0;
      ++it;
    }
    if (it == value.end()) return 0;
    push_string(L, it.key());
    push_json(L, it.value());
    return 2;
  }
  static int next_in_array(lua_State* L, const json& value) {
    std::size_t i = 0;
    if (!lua_isnil(L, 2)) {
      lua_Integer at = list_position(L, value.size());
      if (at < 0) return 0;
      i = static_cast<std::size_t>(at) + 1;
    }
    if (i >= value.size()) return 0;
    lua_pushinteger(L, static_cast<lua_Integer>(i + 1));
    push_json(L, value[i]);
    return 2;
  }
};
constexpr ViewType kJsonView = view_type<Json>(kPolicyFamily);

// get_ptr never throws: it answers nullptr for another type.
void push_json(lua_State* L, const json& value) {
  if (const auto* s = value.get_ptr<const json::string_t*>()) return push_string(L, *s);
  if (const auto* b = value.get_ptr<const json::boolean_t*>()) return lua_pushboolean(L, *b ? 1 : 0);
  if (const auto* i = value.get_ptr<const json::number_integer_t*>())
    return lua_pushinteger(L, static_cast<lua_Integer>(*i));
  if (const auto* u = value.get_ptr<const json::number_unsigned_t*>()) {
    if (*u <= static_cast<std::uint64_t>(std::numeric_limits<lua_Integer>::max()))
      return lua_pushinteger(L, static_cast<lua_Integer>(*u));
    return lua_pushnumber(L, static_cast<lua_Number>(*u));
  }
  if (const auto* f = value.get_ptr<const json::number_float_t*>()) return lua_pushnumber(L, *f);
  if (value.is_object() || value.is_array()) return push_view(L, kJsonView, &value);
  lua_pushnil(L);
}

// Inside a Lua callback: nothing may throw out; a read that cannot be noted
// (out of memory) is left out.
void note_undeclared_read(lua_State* L, const PolicyFacts& facts) noexcept {
  std::string_view key = string_key(L);
  if (key.data() == nullptr) return;
  try {
    std::string name(key);
    if (facts.policy->data_schema.fields.contains(name)) return;
    Place place;
    find_place(L, 1, place);
    DataRead read{std::move(name), place.origin()};
    auto& reads = *facts.undeclared_reads;
    if (std::find(reads.begin(), reads.end(), read) == reads.end()) reads.push_back(std::move(read));
  } catch (...) {
  }
}

// The top of [data]: read as Json reads it, noting undeclared keys.
struct DataRoot {
  static const PolicyFacts& of(const void* data) { return *static_cast<const PolicyFacts*>(data); }
  static void index(lua_State* L, const void* data) {
    const PolicyFacts& facts = of(data);
    if (facts.undeclared_reads) note_undeclared_read(L, facts);
    Json::index(L, &facts.policy->data);
  }
  static lua_Integer length(const void* data) { return Json::length(&of(data).policy->data); }
  static int next(lua_State* L, const void* data) { return Json::next(L, &of(data).policy->data); }
};
constexpr ViewType kDataRootView = view_type<DataRoot>(kPolicyFamily);

using NameList = List<std::string, push_string>;
constexpr ViewType kNameListView = view_type<NameList>(kPolicyFamily);

constexpr RecordField<PolicyFacts> kPolicyFields[] = {
    {"default_capabilities",
     [](lua_State* L, const PolicyFacts& f) { push_view(L, kNameListView, &f.default_capabilities); }},
    {"capabilities", [](lua_State* L, const PolicyFacts& f) { push_view(L, kNameListView, &f.capabilities); }},
    {"extras", [](lua_State* L, const PolicyFacts& f) { push_view(L, kNameListView, &f.extras); }},
    {"data", [](lua_State* L, const PolicyFacts& f) { push_view(L, kDataRootView, &f); }},
};
constexpr ViewType kPolicyView = view_type<Record<PolicyFacts, kPolicyFields>>(kPolicyFamily);

}  // namespace

PolicyFacts policy_facts(const Policy& policy) {
  PolicyFacts facts;
  facts.policy = &policy;
  for (const auto& name : policy.default_capabilities) facts.default_capabilities.push_back(name.value);
  for (const auto& [name, set] : policy.capabilities) facts.capabilities.push_back(name);
  for (const auto& [name, extra] : policy.extras) facts.extras.push_back(name);
  // std::map keys are sorted already; keep the order explicit all the same.
  std::sort(facts.capabilities.begin(), facts.capabilities.end());
  std::sort(facts.extras.begin(), facts.extras.end());
  return facts;
}

void push_policy_view(lua_State* L, const PolicyFacts& facts) { push_view(L, kPolicyView, &facts); }

}  // namespace graft::rules
