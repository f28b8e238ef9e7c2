// SPDX-License-Identifier: Apache-2.0
// The userdata behind every view and the metatable they share. With
// ViewReads attached (graft plan --explain), each access also names the view
// it returns, or notes the value it returns, as a read.
#include "rules/views.hpp"

#include "rules/view_reads.hpp"

namespace graft::rules {

namespace {

constexpr const char* kViewMeta = "graft.view";

struct View {
  const ViewType* type;
  const void* data;
};

View& check_view(lua_State* L) { return *static_cast<View*>(luaL_checkudata(L, 1, kViewMeta)); }

// Runs inside Lua callbacks, where nothing may throw: a read that cannot be
// recorded (out of memory) is left out.
template <typename Note>
void note_read(ViewReads& reads, const View& view, Note&& note) noexcept {
  try {
    if (const std::string* path = reads.path_of(&view)) note(*path);
  } catch (...) {
  }
}

// The value at the top came from `view` at the key at `key_index`: a child
// view is named by its path, anything else is a read.
void note_value(lua_State* L, ViewReads& reads, const View& view, int key_index, bool is_read) {
  note_read(reads, view, [&](const std::string& parent) {
    std::string path = key_path(L, parent, key_index);
    if (void* child = luaL_testudata(L, -1, kViewMeta)) {
      reads.name(child, std::move(path));
    } else if (is_read) {
      reads.read(path + " = " + value_text(L, -1));
    }
  });
}

int view_index(lua_State* L) {
  View& view = check_view(L);
  view.type->index(L, view.data);
  if (ViewReads* reads = attached_view_reads(L)) note_value(L, *reads, view, 2, true);
  return 1;
}

int view_newindex(lua_State* L) {
  View& view = check_view(L);
  return luaL_error(L, "%s is read-only", view.type->family);
}

int view_len(lua_State* L) {
  View& view = check_view(L);
  lua_Integer length = view.type->length(view.data);
  lua_pushinteger(L, length);
  if (ViewReads* reads = attached_view_reads(L))
    note_read(*reads, view, [&](const std::string& path) { reads->read("#" + path + " = " + std::to_string(length)); });
  return 1;
}

int view_next(lua_State* L) {
  View& view = check_view(L);
  lua_settop(L, 2);
  int pushed = view.type->next(L, view.data);
  // The loop over the view is one read (pairs, below); its values are not.
  if (pushed == 2)
    if (ViewReads* reads = attached_view_reads(L)) note_value(L, *reads, view, -2, false);
  if (pushed > 0) return pushed;
  lua_pushnil(L);
  return 1;
}

int view_pairs(lua_State* L) {
  View& view = check_view(L);
  if (ViewReads* reads = attached_view_reads(L))
    note_read(*reads, view, [&](const std::string& path) { reads->read("pairs(" + path + ")"); });
  lua_pushcfunction(L, view_next);
  lua_pushvalue(L, 1);
  lua_pushnil(L);
  return 3;
}

// Two reads of the same field give two userdata; they still compare equal.
int view_eq(lua_State* L) {
  auto* a = static_cast<View*>(luaL_testudata(L, 1, kViewMeta));
  auto* b = static_cast<View*>(luaL_testudata(L, 2, kViewMeta));
  lua_pushboolean(L, a != nullptr && b != nullptr && a->type == b->type && a->data == b->data);
  return 1;
}

int view_tostring(lua_State* L) {
  View& view = check_view(L);
  lua_pushfstring(L, "read-only %s view", view.type->family);
  return 1;
}

constexpr luaL_Reg kViewMethods[] = {
    {"__index", view_index}, {"__newindex", view_newindex}, {"__len", view_len},
    {"__pairs", view_pairs}, {"__eq", view_eq},             {"__tostring", view_tostring},
    {nullptr, nullptr}};

}  // namespace

void register_views(lua_State* L) {
  attach_view_reads(L, nullptr);
  luaL_newmetatable(L, kViewMeta);
  luaL_setfuncs(L, kViewMethods, 0);
  lua_pushliteral(L, "read-only");
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 1);
}

void push_view(lua_State* L, const ViewType& type, const void* data) {
  auto* view = static_cast<View*>(lua_newuserdatauv(L, sizeof(View), 0));
  view->type = &type;
  view->data = data;
  luaL_setmetatable(L, kViewMeta);
}

void name_view(lua_State* L, int index, const char* path) {
  ViewReads* reads = attached_view_reads(L);
  if (!reads) return;
  auto* view = static_cast<const View*>(luaL_testudata(L, index, kViewMeta));
  try {
    if (view) reads->name(view, path);
  } catch (...) {
  }
}

}  // namespace graft::rules
