// SPDX-License-Identifier: Apache-2.0
#include "audit/log_record.hpp"

#include "audit/time_bound.hpp"
#include "graft/base/one_line.hpp"

namespace graft {
namespace {

using json = nlohmann::json;

std::string text_of(const json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump(-1, ' ', false, json::error_handler_t::replace);
}

// "2", "0:1" (GPU 0, partition 1), joined by commas; "none" when empty.
std::string device_list(const json& devices) {
  std::string out;
  if (devices.is_array())
    for (const json& device : devices) {
      const json& gpu = record_member(device, "gpu");
      const json& partition = record_member(device, "partition");
      if (gpu.is_null()) continue;
      out += (out.empty() ? "" : ",") + text_of(gpu) + (partition.is_null() ? "" : ":" + text_of(partition));
    }
  return out.empty() ? "none" : out;
}

std::string name_list(const json& grants) {
  std::string out;
  if (grants.is_array())
    for (const json& grant : grants)
      if (const json& name = record_member(grant, "name"); !name.is_null()) out += (out.empty() ? "" : ",") + text_of(name);
  return out.empty() ? "none" : out;
}

// "REASON (ORIGIN, rule NAME)".
std::string reason_text(const json& reason) {
  std::string where = text_of(record_member(reason, "origin"));
  if (const json& rule = record_member(reason, "rule"); !rule.is_null()) where += ", rule " + text_of(rule);
  return text_of(record_member(reason, "reason")) + " (" + where + ")";
}

}  // namespace

const json& record_member(const json& object, const char* name) {
  static const json none;
  if (!object.is_object()) return none;
  auto found = object.find(name);
  return found == object.end() ? none : *found;
}

Result<json> parse_log_line(std::string_view line) {
  json record = json::parse(line.begin(), line.end(), nullptr, false);
  if (record.is_discarded()) return make_error("not JSON");
  if (!record.is_object()) return make_error("not a JSON object");
  for (const char* name : {"id", "outcome"})
    if (!record_member(record, name).is_string()) return make_error("no string '{}'", name);
  if (!record_member(record, "time").is_number()) return make_error("no number 'time'");
  return record;
}

std::string log_line_text(const json& record) {
  double time = record.at("time").get<double>();
  // Beyond year 9999 (or negative) it is no date a record could carry: shown as written.
  bool plausible = time >= 0 && time < 253402300800.0;
  std::string line = (plausible ? rfc3339_utc(time) : text_of(record.at("time"))) + " " +
                     text_of(record.at("id")) + " " + text_of(record.at("outcome"));
  const json& decisions = record_member(record, "decisions");
  const json& granted = record_member(decisions, "granted");
  if (decisions.is_object())
    line += " devices=" + device_list(record_member(granted, "devices")) +
            " capabilities=" + name_list(record_member(granted, "capabilities"));
  if (const json& refusal = record_member(decisions, "refusal"); refusal.is_object())
    line += " refused: " + reason_text(refusal);
  if (const json& error = record_member(record, "error"); !error.is_null()) line += " error: " + text_of(error);
  return one_line(line);  // ids and reasons may quote a container's control characters
}

}  // namespace graft
