// SPDX-License-Identifier: Apache-2.0
#include "rules/view_reads.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

#include <fmt/format.h>

namespace graft::rules {

static_assert(LUA_EXTRASPACE >= sizeof(ViewReads*), "the view reads pointer lives in the Lua extra space");

void ViewReads::start_rule(std::vector<std::string>* into, std::size_t* left_out) {
  lines_ = into;
  left_out_ = left_out;
  left_out_lines_.clear();
}

void ViewReads::stop_rule() {
  lines_ = nullptr;
  left_out_ = nullptr;
  left_out_lines_.clear();
}

void ViewReads::name(const void* view, std::string path) { paths_[view] = std::move(path); }

const std::string* ViewReads::path_of(const void* view) const {
  auto it = paths_.find(view);
  return it == paths_.end() ? nullptr : &it->second;
}

void ViewReads::read(std::string line) {
  if (!lines_) return;
  if (std::find(lines_->begin(), lines_->end(), line) != lines_->end()) return;
  if (lines_->size() < kLimitPerRule) return lines_->push_back(std::move(line));
  if (left_out_lines_.size() < kCountedOnce && !left_out_lines_.insert(std::move(line)).second) return;
  if (left_out_) ++*left_out_;
}

void attach_view_reads(lua_State* L, ViewReads* reads) {
  std::memcpy(lua_getextraspace(L), &reads, sizeof reads);
}

ViewReads* attached_view_reads(lua_State* L) {
  ViewReads* reads = nullptr;
  std::memcpy(&reads, lua_getextraspace(L), sizeof reads);
  return reads;
}

namespace {

bool is_identifier(const char* text, std::size_t size) {
  if (size == 0 || std::isdigit(static_cast<unsigned char>(text[0]))) return false;
  return std::all_of(text, text + size, [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

constexpr std::size_t kShownChars = 80;

std::string lua_quoted(const char* text, std::size_t size) {
  std::string out = "\"";
  for (std::size_t i = 0; i < std::min(size, kShownChars); ++i) {
    char c = text[i];
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (std::isprint(static_cast<unsigned char>(c))) {
      out += c;
    } else {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
    }
  }
  out += size > kShownChars ? "\"..." : "\"";
  return out;
}

}  // namespace

std::string key_path(lua_State* L, const std::string& parent, int index) {
  if (lua_type(L, index) == LUA_TSTRING) {
    std::size_t size = 0;
    const char* key = lua_tolstring(L, index, &size);
    if (is_identifier(key, size)) return parent + "." + std::string(key, size);
    return parent + "[" + lua_quoted(key, size) + "]";
  }
  if (lua_isinteger(L, index)) return fmt::format("{}[{}]", parent, lua_tointeger(L, index));
  return parent + "[" + value_text(L, index) + "]";
}

// lua_tolstring would turn a number on the stack into a string: numbers are read as numbers.
std::string value_text(lua_State* L, int index) {
  switch (lua_type(L, index)) {
    case LUA_TNIL:
      return "nil";
    case LUA_TBOOLEAN:
      return lua_toboolean(L, index) ? "true" : "false";
    case LUA_TNUMBER:
      if (lua_isinteger(L, index)) return fmt::format("{}", lua_tointeger(L, index));
      return fmt::format("{}", lua_tonumber(L, index));
    case LUA_TSTRING: {
      std::size_t size = 0;
      const char* text = lua_tolstring(L, index, &size);
      return lua_quoted(text, size);
    }
    default:
      return lua_typename(L, lua_type(L, index));
  }
}

}  // namespace graft::rules
