// SPDX-License-Identifier: Apache-2.0
// ViewReads: what rules read through the views, for `graft plan --explain`
// ("req.env.VISIBLE_DEVICES = \"1\"", "#host.gpus = 8"). Recording
// is off unless an evaluation attaches one to its Lua state: a view access
// then costs one null-pointer check. While attached, every view is named by
// the path it was reached through, so a read shows where its value came from
// even when a rule keeps a child view in a local.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <lua.hpp>

namespace graft::rules {

class ViewReads {
 public:
  // Distinct reads kept per rule; the rest are only counted, each once
  // among the first kCountedOnce of them, then every time.
  static constexpr std::size_t kLimitPerRule = 24;
  static constexpr std::size_t kCountedOnce = 4096;

  // Reads go to `into` (and the count past the limit to `left_out`) until
  // stop_rule(); reads outside a rule (while files load) are not kept.
  void start_rule(std::vector<std::string>* into, std::size_t* left_out);
  void stop_rule();

  void name(const void* view, std::string path);
  // The path `view` was reached through, or nullptr for a view never named.
  const std::string* path_of(const void* view) const;
  void read(std::string line);

 private:
  std::unordered_map<const void*, std::string> paths_;
  std::unordered_set<std::string> left_out_lines_;  // of the rule running now
  std::vector<std::string>* lines_ = nullptr;
  std::size_t* left_out_ = nullptr;
};

// Kept in the state's extra space (LUA_EXTRASPACE); register_views clears it.
void attach_view_reads(lua_State* L, ViewReads* reads);
ViewReads* attached_view_reads(lua_State* L);

// How a read looks: the key at `index` appended to a path (".name",
// "[2]", "[\"odd key\"]"), and the value at `index` as Lua would write it
// (strings quoted and cut at 80 characters). Neither changes the stack.
std::string key_path(lua_State* L, const std::string& parent, int index);
std::string value_text(lua_State* L, int index);

}  // namespace graft::rules
