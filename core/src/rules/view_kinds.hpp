// SPDX-License-Identifier: Apache-2.0
// Building blocks for views: records (fixed named fields), lists (1-based
// arrays over a std::vector) and maps (string keys over a std::map). Each
// yields the functions of a ViewType; concrete views are in *_view.cpp.
#pragma once

#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <lua.hpp>

#include "rules/views.hpp"

namespace graft::rules {

inline void push_string(lua_State* L, const std::string& s) { lua_pushlstring(L, s.data(), s.size()); }
inline void push_unsigned(lua_State* L, const unsigned& n) { lua_pushinteger(L, static_cast<lua_Integer>(n)); }
inline void push_bool(lua_State* L, const bool& b) { lua_pushboolean(L, b ? 1 : 0); }

// The key at stack index 2 as a list position (0-based), or -1.
inline lua_Integer list_position(lua_State* L, std::size_t size) {
  if (lua_type(L, 2) != LUA_TNUMBER) return -1;
  int is_integer = 0;
  lua_Integer k = lua_tointegerx(L, 2, &is_integer);
  if (is_integer == 0 || k < 1 || static_cast<std::size_t>(k) > size) return -1;
  return k - 1;
}

// The key at stack index 2 as a string view; empty data pointer if not a string.
inline std::string_view string_key(lua_State* L) {
  if (lua_type(L, 2) != LUA_TSTRING) return {};
  size_t size = 0;
  const char* key = lua_tolstring(L, 2, &size);
  return {key, size};
}

template <typename T>
struct RecordField {
  const char* name;
  void (*push)(lua_State* L, const T& record);
};

template <typename T, auto& kFields>
struct Record {
  static const T& of(const void* data) { return *static_cast<const T*>(data); }
  static int find(lua_State* L) {
    if (lua_type(L, 2) != LUA_TSTRING) return -1;
    const char* key = lua_tostring(L, 2);
    for (std::size_t i = 0; i < std::size(kFields); ++i)
      if (std::strcmp(kFields[i].name, key) == 0) return static_cast<int>(i);
    return -1;
  }
  static void index(lua_State* L, const void* data) {
    int i = find(L);
    if (i < 0) return lua_pushnil(L);
    kFields[i].push(L, of(data));
  }
  static lua_Integer length(const void*) { return 0; }
  static int next(lua_State* L, const void* data) {
    std::size_t i = lua_isnil(L, 2) ? 0 : static_cast<std::size_t>(find(L) + 1);
    if (i == 0 && !lua_isnil(L, 2)) return 0;
    if (i >= std::size(kFields)) return 0;
    lua_pushstring(L, kFields[i].name);
    kFields[i].push(L, of(data));
    return 2;
  }
};

template <typename T, void (*Push)(lua_State*, const T&)>
struct List {
  static const std::vector<T>& of(const void* data) { return *static_cast<const std::vector<T>*>(data); }
  static void index(lua_State* L, const void* data) {
    lua_Integer i = list_position(L, of(data).size());
    if (i < 0) return lua_pushnil(L);
    Push(L, of(data)[static_cast<std::size_t>(i)]);
  }
  static lua_Integer length(const void* data) { return static_cast<lua_Integer>(of(data).size()); }
  static int next(lua_State* L, const void* data) {
    const auto& list = of(data);
    std::size_t i = 0;
    if (!lua_isnil(L, 2)) {
      lua_Integer at = list_position(L, list.size());
      if (at < 0) return 0;
      i = static_cast<std::size_t>(at) + 1;
    }
    if (i >= list.size()) return 0;
    lua_pushinteger(L, static_cast<lua_Integer>(i + 1));
    Push(L, list[i]);
    return 2;
  }
};

// Lookups run inside Lua callbacks, where nothing may throw: the key is
// copied for the map's O(log n) find (a container's env may hold 100k
// entries, and pairs() looks up every key it is handed back), and only if
// that copy cannot be allocated does the lookup fall back to comparing in
// place, one entry after another.
template <typename V, void (*Push)(lua_State*, const V&)>
struct Map {
  using Type = std::map<std::string, V>;
  static const Type& of(const void* data) { return *static_cast<const Type*>(data); }
  static typename Type::const_iterator find(const Type& map, std::string_view key) {
    try {
      return map.find(std::string(key));
    } catch (...) {
    }
    for (auto it = map.begin(); it != map.end(); ++it) {
      if (it->first == key) return it;
      if (std::string_view(it->first) > key) break;
    }
    return map.end();
  }
  static void index(lua_State* L, const void* data) {
    std::string_view key = string_key(L);
    auto it = key.data() == nullptr ? of(data).end() : find(of(data), key);
    if (it == of(data).end()) return lua_pushnil(L);
    Push(L, it->second);
  }
  static lua_Integer length(const void*) { return 0; }
  static int next(lua_State* L, const void* data) {
    const Type& map = of(data);
    auto it = map.begin();
    if (!lua_isnil(L, 2)) {
      std::string_view key = string_key(L);
      if (key.data() == nullptr) return 0;
      it = find(map, key);
      if (it == map.end()) return 0;
      ++it;
    }
    if (it == map.end()) return 0;
    push_string(L, it->first);
    Push(L, it->second);
    return 2;
  }
};

template <typename Kind>
constexpr ViewType view_type(const char* family) {
  return ViewType{family, &Kind::index, &Kind::length, &Kind::next};
}

}  // namespace graft::rules
