// SPDX-License-Identifier: Apache-2.0
#include "audit/audit_log.hpp"

#include <fcntl.h>
#include <fnmatch.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include <nlohmann/json.hpp>

#include "graft/base/unique_fd.hpp"
#include "render/render.hpp"

namespace graft {
namespace {

using json = nlohmann::json;

// Only the env names the policy lists: the full environment may carry secrets.
json request_json(const Request& request, const std::vector<std::string>& env_patterns) {
  json env = json::object();
  for (const auto& [name, value] : request.env)
    for (const auto& pattern : env_patterns)
      if (::fnmatch(pattern.c_str(), name.c_str(), 0) == 0) {
        env[name] = value;
        break;
      }
  return {{"bundle", request.bundle}, {"privileged", request.privileged},
          {"env", env}, {"annotations", request.annotations}};
}

json record_json(const AuditRecord& record) {
  auto now = std::chrono::system_clock::now().time_since_epoch();
  json line = {{"schema", audit_schema_version},
               {"time", std::chrono::duration<double>(now).count()},
               {"id", record.request.container_id},
               {"outcome", outcome_name(record.outcome)},
               {"request", request_json(record.request, record.env_patterns)}};
  if (!record.error.empty()) line["error"] = record.error;
  // graft's peak resident memory so far (the record is written last): what
  // one hook cost the host, and the figure the load test watches for growth.
  if (struct rusage usage {}; ::getrusage(RUSAGE_SELF, &usage) == 0) line["max_rss_kb"] = usage.ru_maxrss;
  if (const ContainerPlan* evaluation = record.evaluation) {
    line["decisions"] = render_decisions_json(evaluation->plan);
    line["actions"] = evaluation->plan.actions.size();
    line["duration_ms"] = {{"inventory", evaluation->times.inventory_ms},
                           {"rules", evaluation->times.rules_ms},
                           {"plan", evaluation->times.plan_ms},
                           {"total", evaluation->times.total_ms}};
  }
  if (const ApplyReport* applied = record.applied) {
    line["applied"] = applied->actions;
    line["duration_ms"]["load_plugins"] = applied->times.load_ms;
    line["duration_ms"]["prepare"] = applied->times.prepare_ms;
    line["duration_ms"]["enter"] = applied->times.enter_ms;
    line["duration_ms"]["apply"] = applied->times.apply_ms;
    line["duration_ms"]["finish"] = applied->times.finish_ms;
    if (!applied->warnings.empty()) line["warnings"] = applied->warnings;
  }
  return line;
}

}  // namespace

Result<int> open_audit_log(const std::string& path) {
  if (path.empty()) return -1;
  int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0640);
  if (fd < 0) {
    int error = errno;
    Error failed = make_error("audit.log {}: cannot open it to append: {} (errno {})", path, std::strerror(error), error);
    failed.code = error;
    return failed;
  }
  return fd;
}

Status append_audit_record(int fd, const std::string& path, const AuditRecord& record) {
  if (fd < 0) return ok_status();
  std::string text = record_json(record).dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
  ssize_t written = ::write(fd, text.data(), text.size());
  if (written != static_cast<ssize_t>(text.size()))
    return make_error("audit log {}: short write ({})", path, std::strerror(errno));
  return ok_status();
}

Status append_audit_record(const std::string& path, const AuditRecord& record) {
  auto fd = open_audit_log(path);
  if (!fd) return fd.error();
  UniqueFd owned(*fd);
  return append_audit_record(owned.get(), path, record);
}

json audit_record_json(const AuditRecord& record) { return record_json(record); }

}  // namespace graft
