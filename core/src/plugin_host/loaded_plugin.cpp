// SPDX-License-Identifier: Apache-2.0
// Guarded calls into one plugin. Plugin code is C by contract, but a C++
// plugin that lets an exception escape must not take the host down with an
// unrelated message: catch everything and name the plugin file. Each call
// is also the running note, with the crash handlers in place, so a plugin
// that crashes or overruns the deadline is named with its phase and action.
#include "plugin_host/loaded_plugin.hpp"

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <dlfcn.h>

#include "watchdog/plugin_crash_handlers.hpp"
#include "watchdog/running_note.hpp"
#include "plugin_host/action_view.hpp"

namespace graft {

LoadedPlugin::LoadedPlugin(std::string path, void* handle, const graft_plugin* descriptor,
                           std::vector<ActionKind> kinds)
    : path_(std::move(path)),
      name_(descriptor->name),
      version_(descriptor->version ? descriptor->version : ""),
      handle_(handle),
      descriptor_(descriptor),
      kinds_(std::move(kinds)),
      services_(name_) {}

std::string LoadedPlugin::where(const Action* action) const {
  if (action == nullptr) return fmt::format("plugin {}", path_);
  return fmt::format("plugin {}: {} {}", path_, to_string(action->kind), action->target);
}

template <class Call>
Status LoadedPlugin::guarded(const char* phase, const Action* action, Call&& call) {
  PluginCrashHandlers crash_handlers;  // nests: nothing to install inside apply_plan's
  PluginCallNote note(path_, phase, action);
  Status outcome = ok_status();
  try {
    outcome = call();
  } catch (...) {
    return make_error("{}: {} threw an exception", where(action), phase);
  }
  if (outcome.ok()) return outcome;
  return outcome.error().context(where(action));
}

LoadedPlugin::~LoadedPlugin() {
  // Nothing to report to from a destructor; the process is tearing down.
  if (initialised_)
    (void)guarded("destroy", nullptr, [&] {
      descriptor_->destroy(state_);
      return ok_status();
    });
  if (handle_ != nullptr) dlclose(handle_);
}

bool LoadedPlugin::claims(ActionKind kind) const {
  return std::find(kinds_.begin(), kinds_.end(), kind) != kinds_.end();
}

Status LoadedPlugin::init(const std::string& config_json) {
  if (initialised_) return make_error("plugin {}: initialised twice", path_);
  initialised_ = true;  // destroy(state) is owed even when init fails
  return guarded("init", nullptr, [&]() -> Status {
    const char* message = nullptr;
    errno = 0;
    graft_status status = descriptor_->init(services_.get(), config_json.c_str(), &state_, &message);
    if (status == GRAFT_OK) return ok_status();
    int code = errno;
    // Copy now: the message may live in state, which destroy frees.
    Error error = make_error("init failed: {}",
                             message ? message : fmt::format("status {}", static_cast<int>(status)));
    error.code = code;
    return error;
  });
}

Error LoadedPlugin::failure() {
  int code = errno;  // first: what the plugin left (plugin.h, graft_status)
  return Error{.message = last_error_message(), .code = code};
}

std::string LoadedPlugin::last_error_message() {
  try {
    const char* text = descriptor_->last_error(state_);
    if (text != nullptr && *text != '\0') return text;
  } catch (...) {
  }
  return "no message";
}

namespace {

graft_apply_context context_of(const ApplyTarget& target) {
  graft_apply_context context{};
  context.struct_size = sizeof context;
  context.container_id = target.container_id.c_str();
  context.rootfs_fd = target.rootfs_fd;
  context.rootfs_path = target.rootfs.c_str();
  context.pid = target.pid;
  context.container_uid = target.uid;
  context.container_gid = target.gid;
  context.pidfd = target.pidfd;
  context.source_root_fd = target.source_root_fd;
  context.source_root = target.source_root.c_str();
  return context;
}

// What a plugin's verify reported; `lost` when a finding could not be kept.
struct FindingCollector {
  std::vector<PluginFinding> findings;
  bool lost = false;
};

// The sink a plugin's verify reports to: each finding copied at once (its
// strings are the plugin's, borrowed for the call). A finding whose
// struct_size does not cover its strings, or of an unknown kind, is kept as
// an unknown naming that, never dropped. Nothing throws into plugin code: a
// finding that cannot be copied marks the call as failed instead.
void collect_finding(void* host, const graft_finding* finding) noexcept {
  auto& collector = *static_cast<FindingCollector*>(host);
  try {
    constexpr std::size_t needed = offsetof(graft_finding, found) + sizeof(const char*);
    if (finding == nullptr || finding->struct_size < needed) {
      collector.findings.push_back({FindingKind::unknown, "", "the plugin reported a malformed finding"});
      return;
    }
    auto text = [](const char* value) { return std::string(value != nullptr ? value : ""); };
    FindingKind kind = finding->kind == GRAFT_FINDING_DRIFT         ? FindingKind::drift
                       : finding->kind == GRAFT_FINDING_NOT_CHECKED ? FindingKind::not_checked
                                                                    : FindingKind::unknown;
    std::string found = text(finding->found);
    if (kind == FindingKind::unknown && finding->kind != GRAFT_FINDING_UNKNOWN)
      found = fmt::format("the plugin reported a finding of unknown kind {}: {}", finding->kind, found);
    collector.findings.push_back({kind, text(finding->expected), std::move(found)});
  } catch (...) {
    collector.lost = true;
  }
}

}  // namespace

// Members after last_error exist only when the plugin's struct_size says so.
#define GRAFT_PLUGIN_HAS(descriptor, member)                                      \
  ((descriptor)->struct_size >= offsetof(graft_plugin, member) + sizeof((descriptor)->member) && \
   (descriptor)->member != nullptr)

Status LoadedPlugin::call_action(ActionCall call, const char* phase, const Action& action,
                                 std::uint32_t index, const ApplyTarget& target) {
  if (!initialised_ || !claims(action.kind))
    return make_error("{}: not initialised or kind not claimed", where(&action));
  ActionView view(action, index);
  graft_apply_context context = context_of(target);
  return guarded(phase, &action, [&]() -> Status {
    errno = 0;
    if (call(state_, view.get(), &context) == GRAFT_OK) return ok_status();
    return failure();
  });
}

Status LoadedPlugin::prepare(const Action& action, std::uint32_t index, const ApplyTarget& target) {
  if (!GRAFT_PLUGIN_HAS(descriptor_, prepare)) return ok_status();
  return call_action(descriptor_->prepare, "prepare", action, index, target);
}

Status LoadedPlugin::apply(const Action& action, std::uint32_t index, const ApplyTarget& target) {
  return call_action(descriptor_->apply, "apply", action, index, target);
}

bool LoadedPlugin::verifies() const { return GRAFT_PLUGIN_HAS(descriptor_, verify); }

Result<std::vector<PluginFinding>> LoadedPlugin::verify(const Action& action, std::uint32_t index,
                                                        const ApplyTarget& target) {
  if (!initialised_ || !claims(action.kind) || !verifies())
    return make_error("{}: not initialised, kind not claimed or no verify", where(&action));
  FindingCollector collector;
  graft_finding_sink sink{sizeof(graft_finding_sink), &collector, &collect_finding};
  ActionView view(action, index);
  graft_apply_context context = context_of(target);
  auto status = guarded("verify", &action, [&]() -> Status {
    errno = 0;
    if (descriptor_->verify(state_, view.get(), &context, &sink) == GRAFT_OK) return ok_status();
    return failure();
  });
  if (!status) return status.error();
  if (collector.lost) return make_error("{}: verify: a finding could not be kept", where(&action));
  return std::move(collector.findings);
}

Status LoadedPlugin::finish(const ApplyTarget& target) {
  if (!GRAFT_PLUGIN_HAS(descriptor_, finish)) return ok_status();
  graft_apply_context context = context_of(target);
  return guarded("finish", nullptr, [&]() -> Status {
    errno = 0;
    if (descriptor_->finish(state_, &context) == GRAFT_OK) return ok_status();
    return failure().context("finish");
  });
}

}  // namespace graft
