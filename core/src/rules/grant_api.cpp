// SPDX-License-Identifier: Apache-2.0
// The grant methods: argument checks in Lua terms, then Grant does the work
// inside guarded() (see guard.hpp for why).
#include "rules/grant_api.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "graft/base/did_you_mean.hpp"

#include "sandbox/guard.hpp"
#include "sandbox/place.hpp"
#include "sandbox/sandbox.hpp"

namespace graft::rules {

namespace {

constexpr const char* kGrantMeta = "graft.grant";

// `grant.deny("x")` passes the string as the grant; Lua's own message
// ("graft.grant expected, got string") does not say that the dot is the bug.
Grant& self(lua_State* L) {
  if (auto** slot = static_cast<Grant**>(luaL_testudata(L, 1, kGrantMeta))) return **slot;
  lua_Debug call{};
  const char* name = lua_getstack(L, 0, &call) && lua_getinfo(L, "n", &call) && call.name ? call.name : "method";
  luaL_error(L, "%s: call it with a colon, grant:%s(...), not grant.%s(...) (the first argument was a %s, "
             "not the grant)", name, name, name, luaL_typename(L, 1));
  std::abort();  // luaL_error does not return
}

// One method call: the grant, the reason argument and the calling rule line.
struct Call {
  Grant* grant;
  std::string_view reason;
  Place place;
};

Call begin(lua_State* L, int reason_arg) {
  Call call{&self(L), {}, {}};
  size_t size = 0;
  const char* text = luaL_checklstring(L, reason_arg, &size);
  call.reason = std::string_view(text, size);
  find_place(L, 1, call.place);
  return call;
}

// First in every method that changes what is granted: derive and check
// rules run once the grant is final.
void check_may_change(lua_State* L, const char* method) {
  RulePhase phase = self(L).phase();
  if (phase_changes_grant(phase)) return;
  luaL_error(L, "%s: a '%s' rule cannot change what is granted (it runs once the grant is final); "
             "use a request or restrict rule", method, phase_name(phase).data());
}

Reason reason_of(const Call& call) {
  return Reason{std::string(call.reason), call.place.origin(), call.grant->rule()};
}

std::string_view check_name(lua_State* L, int arg) {
  size_t size = 0;
  const char* text = luaL_checklstring(L, arg, &size);
  return {text, size};
}

int finish(lua_State* L, const Failure& failure) {
  if (failure.failed) return raise(L, failure);
  return 0;
}

// The optional vendor argument of inject, skip and injecting.
std::string vendor_arg(lua_State* L, int arg) {
  if (lua_isnoneornil(L, arg)) return {};
  size_t size = 0;
  const char* text = luaL_checklstring(L, arg, &size);
  return {text, size};
}

int inject(lua_State* L) {
  check_may_change(L, "inject");
  Call call = begin(L, 2);
  std::string vendor = vendor_arg(L, 3);
  return finish(L, guarded([&] { return call.grant->inject(reason_of(call), vendor); }));
}

int skip(lua_State* L) {
  check_may_change(L, "skip");
  Call call = begin(L, 2);
  std::string vendor = vendor_arg(L, 3);
  return finish(L, guarded([&] { return call.grant->skip(reason_of(call), vendor); }));
}

int add_device(lua_State* L) {
  check_may_change(L, "add_device");
  lua_Integer gpu = luaL_checkinteger(L, 2);
  Call call = begin(L, 3);
  return finish(L, guarded([&] { return call.grant->add_device(gpu, reason_of(call)); }));
}

int add_partition(lua_State* L) {
  check_may_change(L, "add_partition");
  lua_Integer gpu = luaL_checkinteger(L, 2);
  lua_Integer partition = luaL_checkinteger(L, 3);
  Call call = begin(L, 4);
  return finish(L, guarded([&] { return call.grant->add_partition(gpu, partition, reason_of(call)); }));
}

// The optional last argument of remove_device and restrict_devices:
// {allow_none = true} lets them leave an injecting container without GPUs;
// by default that is a refusal, so a lease that matches nothing is loud
// rather than a silent CPU-only job.
bool allow_none_option(lua_State* L, int arg, const char* method) {
  if (lua_isnoneornil(L, arg)) return false;
  luaL_checktype(L, arg, LUA_TTABLE);
  lua_pushnil(L);
  while (lua_next(L, arg) != 0) {
    lua_pop(L, 1);
    if (lua_type(L, -1) != LUA_TSTRING || std::string_view(lua_tostring(L, -1)) != "allow_none")
      luaL_error(L, "%s: unknown option '%s' (the only option is allow_none)", method,
                 luaL_tolstring(L, -1, nullptr));
  }
  lua_getfield(L, arg, "allow_none");
  bool allow = lua_toboolean(L, -1) != 0;
  lua_pop(L, 1);
  return allow;
}

int remove_device(lua_State* L) {
  check_may_change(L, "remove_device");
  lua_Integer gpu = luaL_checkinteger(L, 2);
  Call call = begin(L, 3);
  bool allow_none = allow_none_option(L, 4, "remove_device");
  Failure failure = guarded([&] { return call.grant->remove_device(gpu, reason_of(call), allow_none); });
  if (failure.failed) return raise(L, failure);
  if (call.grant->refused()) return Sandbox::of(L).halt(L);
  return 0;
}

// Whether `id` has the shape of a device UUID: 8-4-4-4-12 hex digits, alone
// or after a prefix ending in '-' ("GPU-...", "MIG-..."). A lease may name
// GPUs of other nodes by UUID; anything else that names no GPU here is a typo.
bool looks_like_uuid(std::string_view id) {
  constexpr std::string_view shape = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";
  if (id.size() < shape.size()) return false;
  std::string_view tail = id.substr(id.size() - shape.size());
  for (std::size_t i = 0; i < shape.size(); ++i)
    if (shape[i] == '-' ? tail[i] != '-' : !std::isxdigit(static_cast<unsigned char>(tail[i]))) return false;
  return id.size() == shape.size() || id[id.size() - shape.size() - 1] == '-';
}

// Marks the GPU named by the list entry on top of the stack. An index or
// UUID this host lacks is ignored (a lease may list GPUs of other nodes);
// an entry that is neither is an error, not a silent miss.
void mark_entry(lua_State* L, const Grant& grant, unsigned char* keep, lua_Integer entry) {
  std::size_t count = grant.gpu_count();
  if (lua_type(L, -1) == LUA_TNUMBER) {
    int is_integer = 0;
    lua_Integer i = lua_tointegerx(L, -1, &is_integer);
    if (is_integer == 0 || i < 0)
      luaL_error(L, "restrict_devices: entry %I (%s) is not a GPU index (a whole number from 0)", entry,
                 lua_tostring(L, -1));
    if (static_cast<std::size_t>(i) < count) keep[i] = 1;
    return;
  }
  if (lua_type(L, -1) != LUA_TSTRING)
    luaL_error(L, "restrict_devices: entry %I is a %s, expected a GPU index or UUID", entry,
               luaL_typename(L, -1));
  size_t size = 0;
  const char* text = lua_tolstring(L, -1, &size);
  std::string_view id(text, size);
  if (auto gpu = grant.gpu_by_uuid(id)) {
    keep[*gpu] = 1;
  } else if (!id.empty() && id.find_first_not_of("0123456789") == std::string_view::npos && id.size() < 10) {
    unsigned long i = std::strtoul(text, nullptr, 10);
    if (i < count) keep[i] = 1;
  } else if (!looks_like_uuid(id)) {
    luaL_error(L, "restrict_devices: entry %I ('%s') is neither a GPU index nor a UUID", entry, text);
  }
}

int restrict_devices(lua_State* L) {
  check_may_change(L, "restrict_devices");
  int list_type = lua_type(L, 2);
  luaL_argexpected(L, list_type == LUA_TTABLE || list_type == LUA_TUSERDATA, 2, "list of GPU indices or UUIDs");
  Call call = begin(L, 3);
  bool allow_none = allow_none_option(L, 4, "restrict_devices");
  std::size_t count = call.grant->gpu_count();
  // Scratch space owned by Lua, so an error while reading the list leaks nothing.
  auto* keep = static_cast<unsigned char*>(lua_newuserdatauv(L, count + 1, 0));
  std::memset(keep, 0, count + 1);
  for (lua_Integer entry = 1; lua_geti(L, 2, entry) != LUA_TNIL; ++entry) {
    mark_entry(L, *call.grant, keep, entry);
    lua_pop(L, 1);
  }
  Failure failure = guarded([&] {
    call.grant->restrict_devices(std::span<const unsigned char>(keep, count), reason_of(call), allow_none);
    return ok_status();
  });
  if (failure.failed) return raise(L, failure);
  if (call.grant->refused()) return Sandbox::of(L).halt(L);
  return 0;
}

int add_capability(lua_State* L) {
  check_may_change(L, "add_capability");
  std::string_view name = check_name(L, 2);
  Call call = begin(L, 3);
  return finish(L, guarded([&] { return call.grant->add_capability(name, reason_of(call)); }));
}

int drop_capability(lua_State* L) {
  check_may_change(L, "drop_capability");
  std::string_view name = check_name(L, 2);
  Call call = begin(L, 3);
  return finish(L, guarded([&] { return call.grant->drop_capability(name, reason_of(call)); }));
}

int add_extra(lua_State* L) {
  check_may_change(L, "add_extra");
  std::string_view name = check_name(L, 2);
  Call call = begin(L, 3);
  return finish(L, guarded([&] { return call.grant->add_extra(name, reason_of(call)); }));
}

int drop_extra(lua_State* L) {
  check_may_change(L, "drop_extra");
  std::string_view name = check_name(L, 2);
  Call call = begin(L, 3);
  return finish(L, guarded([&] { return call.grant->drop_extra(name, reason_of(call)); }));
}

// grant:add_node(class, reason) or grant:add_node(class, number, reason).
int add_node(lua_State* L) {
  check_may_change(L, "add_node");
  std::string_view device_class = check_name(L, 2);
  std::optional<std::int64_t> number;
  int reason_arg = 3;
  if (lua_type(L, 3) == LUA_TNUMBER) {
    number = luaL_checkinteger(L, 3);
    reason_arg = 4;
  }
  Call call = begin(L, reason_arg);
  return finish(L, guarded([&] { return call.grant->add_node(device_class, number, reason_of(call)); }));
}

int set_env(lua_State* L) {
  std::string_view name = check_name(L, 2);
  std::string_view value = check_name(L, 3);
  Call call = begin(L, 4);
  return finish(L, guarded([&] { return call.grant->set_env(name, value, reason_of(call)); }));
}

int write_file(lua_State* L) {
  std::string_view path = check_name(L, 2);
  std::string_view content = check_name(L, 3);
  Call call = begin(L, 4);
  return finish(L, guarded([&] { return call.grant->write_file(path, content, reason_of(call)); }));
}

int note(lua_State* L) {
  Grant& grant = self(L);
  std::string_view text = check_name(L, 2);
  return finish(L, guarded([&] { grant.note(text); return ok_status(); }));
}

// Records the refusal, then stops the sandbox: no later instruction runs,
// and a pcall around the call cannot undo it.
int deny(lua_State* L) {
  Call call = begin(L, 2);
  Failure failure = guarded([&] { call.grant->deny(reason_of(call)); return ok_status(); });
  if (failure.failed) return raise(L, failure);
  return Sandbox::of(L).halt(L);
}

int devices(lua_State* L) {
  const auto& list = self(L).intent().devices;
  lua_createtable(L, static_cast<int>(list.size()), 0);
  for (std::size_t i = 0; i < list.size(); ++i) {
    lua_createtable(L, 0, 2);
    lua_pushinteger(L, list[i].gpu);
    lua_setfield(L, -2, "gpu");
    if (list[i].partition) {
      lua_pushinteger(L, *list[i].partition);
      lua_setfield(L, -2, "partition");
    }
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  return 1;
}

int push_names(lua_State* L, const std::vector<NamedGrant>& list) {
  lua_createtable(L, static_cast<int>(list.size()), 0);
  for (std::size_t i = 0; i < list.size(); ++i) {
    lua_pushlstring(L, list[i].name.data(), list[i].name.size());
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  return 1;
}

int capabilities(lua_State* L) { return push_names(L, self(L).intent().capabilities); }
int extras(lua_State* L) { return push_names(L, self(L).intent().extras); }

int injecting(lua_State* L) {
  lua_pushboolean(L, self(L).injecting(vendor_arg(L, 2)) ? 1 : 0);
  return 1;
}

int grant_newindex(lua_State* L) { return luaL_error(L, "grant is read-only (use its methods)"); }

extern const luaL_Reg kMethods[];

// grant.__index: the method, or an error naming the closest one, since a
// misspelt method would otherwise be "attempt to call a nil value".
int grant_index(lua_State* L) {
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
  const char* key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : luaL_typename(L, 2);
  // The suggestion is C++ work: inside guarded(), gone before Lua raises.
  Failure failure = guarded([&]() -> Status {
    std::vector<std::string_view> names;
    for (const luaL_Reg* method = kMethods; method->name; ++method) names.push_back(method->name);
    return make_error("grant has no method '{}'{}", key, did_you_mean(key, names));
  });
  return raise(L, failure);
}

int grant_tostring(lua_State* L) {
  lua_pushliteral(L, "grant");
  return 1;
}

const luaL_Reg kMethods[] = {
    {"inject", inject},
    {"skip", skip},
    {"add_device", add_device},
    {"add_partition", add_partition},
    {"remove_device", remove_device},
    {"restrict_devices", restrict_devices},
    {"add_capability", add_capability},
    {"drop_capability", drop_capability},
    {"add_extra", add_extra},
    {"drop_extra", drop_extra},
    {"add_node", add_node},
    {"set_env", set_env},
    {"write_file", write_file},
    {"note", note},
    {"deny", deny},
    {"devices", devices},
    {"capabilities", capabilities},
    {"extras", extras},
    {"injecting", injecting},
    {nullptr, nullptr}};

}  // namespace

void register_grant_api(lua_State* L) {
  luaL_newmetatable(L, kGrantMeta);
  // Methods live in their own table: with __index pointing at the metatable,
  // grant.__index would hand it out.
  luaL_newlib(L, kMethods);
  lua_pushcclosure(L, grant_index, 1);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, grant_newindex);
  lua_setfield(L, -2, "__newindex");
  lua_pushcfunction(L, grant_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pushliteral(L, "read-only");
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 1);
}

void push_grant(lua_State* L, Grant& grant) {
  auto** slot = static_cast<Grant**>(lua_newuserdatauv(L, sizeof(Grant*), 0));
  *slot = &grant;
  luaL_setmetatable(L, kGrantMeta);
}

}  // namespace graft::rules
