// SPDX-License-Identifier: Apache-2.0
// Text lines read "drift KIND TARGET: expected E, found F (origin, reason)";
// a question the plugin cannot answer reads "unknown ...: cannot tell: WHY".
#include "render/verify_render.hpp"

#include <fmt/format.h>

#include "graft/base/one_line.hpp"

namespace graft {
namespace {

std::string verify_provenance(const Provenance& provenance) {
  std::string origin = provenance.origin.brief();
  if (provenance.reason.empty()) return origin;
  return origin.empty() ? provenance.reason : origin + ", " + provenance.reason;
}

std::string drift_line(const Drift& drift) {
  // Targets and what plugins found may quote the image's own names.
  std::string head = fmt::format("{:<8} {} {}: ", drift.unknown ? "unknown" : "drift",
                                 to_string(drift.kind), one_line(drift.target));
  std::string body = drift.unknown ? fmt::format("expected {}, cannot tell: {}",
                                                 one_line(drift.expected), one_line(drift.found))
                                   : fmt::format("expected {}, found {}", one_line(drift.expected),
                                                 one_line(drift.found));
  return head + body + " (" + verify_provenance(drift.provenance) + ")\n";
}

std::string not_checked_text(const VerifyReport& report) {
  std::string text;
  for (const auto& [kind, count] : report.not_checked)
    text += fmt::format("{}{} {}", text.empty() ? "" : ", ", count, to_string(kind));
  return text;
}

std::size_t count_unknown(const VerifyReport& report) {
  std::size_t unknown = 0;
  for (const Drift& drift : report.drifts) unknown += drift.unknown ? 1 : 0;
  return unknown;
}

}  // namespace

std::string render_verify_text(const VerifiedContainer& container, const VerifyReport& report) {
  std::string out;
  for (const Drift& drift : report.drifts) out += drift_line(drift);
  const std::size_t unknown = count_unknown(report);
  out += container.id.empty()
             ? fmt::format("process {}: ", container.pid)
             : fmt::format("container {} (pid {}): ", one_line(container.id), container.pid);
  if (!report.drifted())
    out += fmt::format("no drift, {} actions as planned", report.held);
  else
    out += fmt::format("{} drifted, {} cannot be told, {} as planned",
                       report.drifts.size() - unknown, unknown, report.held);
  std::string unchecked = not_checked_text(report);
  if (!unchecked.empty()) out += "; not checked: " + unchecked;
  return out + "\n";
}

nlohmann::json render_verify_json(const VerifiedContainer& container, const VerifyReport& report) {
  nlohmann::json drifts = nlohmann::json::array();
  for (const Drift& drift : report.drifts)
    drifts.push_back({{"kind", to_string(drift.kind)},
                      {"target", drift.target},
                      {"status", drift.unknown ? "unknown" : "drift"},
                      {"expected", drift.expected},
                      {"found", drift.found},
                      {"origin", drift.provenance.origin.brief()},
                      {"capability", drift.provenance.capability},
                      {"reason", drift.provenance.reason}});
  nlohmann::json not_checked = nlohmann::json::object();
  for (const auto& [kind, count] : report.not_checked) not_checked[to_string(kind)] = count;
  return {{"schema", verify_schema_id},   {"id", container.id},
          {"pid", container.pid},         {"drifted", report.drifted()},
          {"drifts", std::move(drifts)},  {"held", report.held},
          {"not_checked", std::move(not_checked)}};
}

}  // namespace graft
