// SPDX-License-Identifier: Apache-2.0
// Read-only views of the Request, the Inventory and the Policy for rules.
// A view is a small userdata pointing at engine data: a rule reads through
// it and cannot write (every assignment raises "<family> is read-only"),
// and since rawset/rawget do not apply to userdata, nothing a rule does can
// change what the next rule sees. The engine data outlives the Lua state.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <lua.hpp>

#include "inventory/inventory.hpp"
#include "policy/policy.hpp"
#include "request/request.hpp"
#include "rules/data_read.hpp"

namespace graft::rules {

// How one kind of view reads its data. All functions find the view's key at
// stack index 2 and may not throw.
struct ViewType {
  const char* family;                               // "request", "host", "policy"
  void (*index)(lua_State* L, const void* data);    // pushes the value, or nil
  lua_Integer (*length)(const void* data);          // #view
  int (*next)(lua_State* L, const void* data);      // pushes key, value after the key; 0 at the end
};

// Creates the metatable all views share. Runs inside a protected call.
void register_views(lua_State* L);
void push_view(lua_State* L, const ViewType& type, const void* data);
// Gives the view at `index` the path its reads are shown under ("req"), when
// ViewReads are attached (view_reads.hpp); does nothing otherwise.
void name_view(lua_State* L, int index, const char* path);

// What `req` shows beyond the Request: which request channels the policy
// trusts for this container.
struct RequestFacts {
  const Request* request = nullptr;
  std::map<std::string, bool> trusted;
};

// What `policy` shows: names, in a stable order, and the [data] table.
struct PolicyFacts {
  const Policy* policy = nullptr;
  std::vector<std::string> default_capabilities;
  std::vector<std::string> capabilities;  // sorted
  std::vector<std::string> extras;        // sorted
  // While a rule runs with activity recorded: where it read a top-level
  // policy.data key that [data_schema] does not declare (policy check).
  std::vector<DataRead>* undeclared_reads = nullptr;
};

RequestFacts request_facts(const Request& request, const Policy& policy);
PolicyFacts policy_facts(const Policy& policy);

void push_request_view(lua_State* L, const RequestFacts& facts);
void push_host_view(lua_State* L, const Inventory& inventory);
void push_policy_view(lua_State* L, const PolicyFacts& facts);

}  // namespace graft::rules
