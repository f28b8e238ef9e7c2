// SPDX-License-Identifier: Apache-2.0
// Matching a process's cgroups to a container id (cgroup_match.hpp).
#include "apply/cgroup_match.hpp"

#include <string>

#include "graft/base/one_line.hpp"
#include "graft/base/proc_cgroup.hpp"

namespace graft {
namespace {

// How a runtime names a container's cgroup: one whole path component, the
// id between `prefix` and `suffix`. Any other text around the id is some
// other cgroup's name (another container's "web1-old", a login session's
// "session-3.scope", LXC's monitor "lxc.monitor.<id>", conmon's
// "libpod-conmon-<id>.scope").
struct CgroupForm {
  std::string_view prefix;
  std::string_view suffix;
};

constexpr CgroupForm kCgroupForms[] = {
    {"", ""},                    // cgroupfs: runc, crun, /docker/<id>, /k8s.io/<id>
    {"runc-", ".scope"},         // systemd driver, no cgroupsPath (":runc:<id>")
    {"crun-", ".scope"},         // crun's systemd driver, no cgroupsPath
    {"docker-", ".scope"},       // Docker's "system.slice:docker:<id>"
    {"cri-containerd-", ".scope"},
    {"crio-", ".scope"},
    {"crio-", ""},               // CRI-O's cgroupfs manager
    {"libpod-", ".scope"},
    {"libpod-", ""},             // podman's cgroupfs manager (/libpod_parent/libpod-<id>)
    {"libpod-payload-", ""},     // podman --cgroups=split
    {"lxc.payload.", ""},
};

bool component_names(std::string_view component, std::string_view id) {
  for (const CgroupForm& form : kCgroupForms) {
    if (component.size() == form.prefix.size() + id.size() + form.suffix.size() &&
        component.starts_with(form.prefix) && component.ends_with(form.suffix) &&
        component.substr(form.prefix.size(), id.size()) == id)
      return true;
  }
  return false;
}

}  // namespace

bool cgroup_names_container(std::string_view proc_cgroup, std::string_view id) {
  if (id.empty()) return false;
  for (const ProcCgroupLine& line : parse_proc_cgroup(proc_cgroup)) {
    std::string_view path = line.path;
    while (!path.empty()) {
      std::size_t slash = path.find('/');
      if (component_names(path.substr(0, slash), id)) return true;
      path = slash == std::string_view::npos ? std::string_view{} : path.substr(slash + 1);
    }
  }
  return false;
}

Status check_process_is_container(const ContainerProcess& process, std::string_view id) {
  auto text = process.read_proc("cgroup", "its cgroup");
  if (!text) return text.error();
  if (cgroup_names_container(*text, id)) return ok_status();
  std::string first = text->substr(0, text->find('\n'));
  return make_error(
      "process {} is not container {}: none of its cgroups names the id (first: {}); give "
      "the container's init pid, or --trust-pid if its runtime names cgroups otherwise",
      process.pid(), id, one_line(first));
}

}  // namespace graft
