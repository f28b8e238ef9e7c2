// SPDX-License-Identifier: Apache-2.0
#include "inventory/gpu_record.hpp"

namespace graft {
namespace {

bool is_record_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

std::string_view trim_record(std::string_view text) {
  while (!text.empty() && is_record_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_record_blank(text.back())) text.remove_suffix(1);
  return text;
}

// Where the key ends: at the colon, or at the first blank of a trimmed line.
std::size_t separator(std::string_view line, Discovery::RecordFormat format) {
  return format == Discovery::RecordFormat::colon ? line.find(':') : line.find_first_of(" \t");
}

}  // namespace

GpuRecord parse_gpu_record(std::string_view text, Discovery::RecordFormat format) {
  GpuRecord fields;
  while (!text.empty()) {
    auto end = std::min(text.find('\n'), text.size());
    std::string_view line = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    if (format == Discovery::RecordFormat::space) line = trim_record(line);
    auto at = separator(line, format);
    if (at == std::string_view::npos) continue;
    std::size_t value_at = format == Discovery::RecordFormat::colon ? at + 1 : at;
    fields.emplace(std::string(trim_record(line.substr(0, at))), std::string(trim_record(line.substr(value_at))));
  }
  return fields;
}

bool skipped_record(const GpuRecord& record, const std::map<std::string, std::string>& skip) {
  for (const auto& [key, value] : skip) {
    auto field = record.find(key);
    if (field != record.end() && field->second == value) return true;
  }
  return false;
}

}  // namespace graft
