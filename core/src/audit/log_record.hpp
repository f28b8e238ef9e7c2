// SPDX-License-Identifier: Apache-2.0
// One line of the audit log as `graft log` reads it: parsed without
// throwing, checked for the fields every record has, and shown as one
// readable line. A reader must survive any line: a torn write, a hand edit,
// a record from another version.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "graft/base/error.hpp"

namespace graft {

// The record on `line`, or why it is none: not JSON, not an object, or
// `id`, `outcome` (strings) or `time` (a number) missing or of another type.
Result<nlohmann::json> parse_log_line(std::string_view line);

// `object[name]`, or null when `object` is no object or lacks it.
const nlohmann::json& record_member(const nlohmann::json& object, const char* name);

// "TIME ID OUTCOME devices=.. capabilities=.. [refused: ..] [error: ..]":
// devices and capabilities only when the record has decisions.
std::string log_line_text(const nlohmann::json& record);

}  // namespace graft
