// SPDX-License-Identifier: Apache-2.0
// GPU records: one file of fields per GPU, as a driver prints them, either
// "Key:  value" lines (procfs information files) or "key value" lines
// (sysfs property files), and whether a record is one to skip (a record
// the same glob matches that is not a GPU). Pure.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "policy/policy.hpp"

namespace graft {

using GpuRecord = std::map<std::string, std::string>;

// Fields of `text`, keys and values trimmed; a line without a separator is
// skipped, and of a repeated key the first value is kept.
GpuRecord parse_gpu_record(std::string_view text, Discovery::RecordFormat format);

// Whether a field named in `skip` has the value given there.
bool skipped_record(const GpuRecord& record, const std::map<std::string, std::string>& skip);

}  // namespace graft
