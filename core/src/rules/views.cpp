// The userdata behind every view and the metatable they share.
#include "rules/views.hpp"

namespace graft::rules {

namespace {

constexpr const char* kViewMeta = "graft.view";

struct View {
  const ViewType* type;
  const void* data;
};

View& check_view(lua_State* L) { return *static_cast<View*>(luaL_checkudata(L, 1, kViewMeta)); }

int view_index(lua_State* L) {
  View& view = check_view(L);
  view.type->index(L, view.data);
  return 1;
}

int view_newindex(lua_State* L) {
  View& view = check_view(L);
  return luaL_error(L, "%s is read-only", view.type->family);
}

int view_len(lua_State* L) {
  View& view = check_view(L);
  lua_pushinteger(L, view.type->length(view.data));
  return 1;
}

int view_next(lua_State* L) {
  View& view = check_view(L);
  lua_settop(L, 2);
  int pushed = view.type->next(L, view.data);
  if (pushed > 0) return pushed;
  lua_pushnil(L);
  return 1;
}

int view_pairs(lua_State* L) {
  check_view(L);
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

}  // namespace graft::rules
