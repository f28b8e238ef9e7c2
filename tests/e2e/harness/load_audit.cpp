// SPDX-License-Identifier: Apache-2.0
#include "load_audit.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "gpu_host.hpp"
#include "hook_timing.hpp"
#include "site_policy.hpp"

namespace graft::e2e {
namespace {

// The fixture's site policy under another name: the vendor include, the
// build tree's plugins, every host root at the fake host, `audit` when set,
// and graft's deadline scaled to the build (hook_timing.hpp): 50 hooks at
// once on two cores wait for the CPU, five times longer under ASan.
std::string write_load_policy(const std::string& name, const std::string& audit) {
  const auto& host = gpu_host().host;
  std::string path = host.path("/etc/graft/" + name + ".toml");
  std::ofstream out(path);
  out << "include = [\"" << fixture::source_policy_dir() << "/nvidia/nvidia.toml\"]\n\n"
      << "[plugins]\ndir = \"" GRAFT_BUILD_PLUGIN_DIR "\"\n\n";
  if (!audit.empty()) out << "[audit]\nlog = \"" << audit << "\"\n\n";
  out << "[limits]\ndeadline_ms = " << kHookDeadlineMs << "\n\n";
  out << "[host]\n";
  for (const char* key : {"driver_root", "dev_root", "proc_root", "sys_root", "run_root"})
    out << key << " = \"" << host.root() << "\"\n";
  if (!out) throw std::runtime_error("cannot write " + path);
  return path;
}

}  // namespace

const LoadPolicies& load_policies() {
  static const LoadPolicies policies = [] {
    // gpu_host()'s own log, which audit_records() reads; created now so the
    // fake host's file list does not change with the first hook.
    std::string audit = gpu_host().audit_log;
    std::ofstream(audit).flush();
    return LoadPolicies{write_load_policy("load-hook", audit), write_load_policy("load-plan", ""), audit};
  }();
  return policies;
}

AuditLines read_audit_lines(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream whole;
  whole << in.rdbuf();
  const std::string text = whole.str();
  AuditLines out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    std::string line = text.substr(start, end == std::string::npos ? end : end - start);
    ++out.lines;
    auto record = nlohmann::json::parse(line, nullptr, false);
    if (end == std::string::npos || record.is_discarded() || !record.is_object())
      out.torn.push_back(line);
    else
      out.records.push_back(std::move(record));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

std::vector<nlohmann::json> records_of(const AuditLines& lines, const std::string& id) {
  std::vector<nlohmann::json> out;
  for (const auto& record : lines.records)
    if (record.value("id", "") == id) out.push_back(record);
  return out;
}

std::size_t most_hooks_at_once(const AuditLines& lines) {
  std::vector<std::pair<double, int>> events;  // (time, +1 start / -1 end); ends sort first
  for (const auto& record : lines.records) {
    if (record.value("outcome", "") != "applied") continue;
    double ms = 0;
    for (const char* phase : {"total", "load_plugins", "prepare", "enter", "apply", "finish"})
      ms += record.at("duration_ms").value(phase, 0.0);
    double end = record.at("time").get<double>();
    events.emplace_back(end - ms / 1000, +1);
    events.emplace_back(end, -1);
  }
  std::sort(events.begin(), events.end());
  std::size_t running = 0, most = 0;
  for (const auto& [time, change] : events) {
    running = change > 0 ? running + 1 : running - 1;
    most = std::max(most, running);
  }
  return most;
}

}  // namespace graft::e2e
