// SPDX-License-Identifier: Apache-2.0
#include "rules/check.hpp"

#include <lua.hpp>

#include <memory>
#include <vector>

#include "graft/base/bounded_read.hpp"

namespace graft {

Status check_rule_files(const Policy& policy) {
  std::unique_ptr<lua_State, decltype(&lua_close)> state(luaL_newstate(), &lua_close);
  if (!state) return make_error("cannot create a Lua state");
  std::vector<SourcedString> files = policy.rules;
  files.insert(files.end(), policy.rule_modules.begin(), policy.rule_modules.end());
  for (const auto& file : files) {
    auto text = read_file(file.value, 4u << 20);
    if (!text) return text.error().context(file.origin.full());
    std::string chunk_name = "@" + file.value;
    // Mode "t": binary chunks are refused here exactly as at evaluation.
    if (luaL_loadbufferx(state.get(), text->data(), text->size(), chunk_name.c_str(), "t") != LUA_OK) {
      std::string message = lua_tostring(state.get(), -1);
      return Error{message};
    }
    lua_pop(state.get(), 1);
  }
  return ok_status();
}

}  // namespace graft
