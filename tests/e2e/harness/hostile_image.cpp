// SPDX-License-Identifier: Apache-2.0
#include "hostile_image.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <iostream>

#include <fmt/format.h>

#include "gpu_host.hpp"

namespace graft::e2e {
namespace {

constexpr const char* kWrapper = "/graft-hostile.sh";
// Granted by every family's request; in an injected container it opens as
// far as the absent driver allows.
constexpr const char* kPlannedGpuNode = "/dev/nvidia1";

std::string base_name(const std::string& path) { return path.substr(path.rfind('/') + 1); }

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// The container's script: says it ran, reads libcuda.so.1 (both layouts),
// looks for compat content and for markers the image's tools would leave,
// then either runs the plan probe (/graft-check.sh) or, when the image's
// ldconfig or PATH must not be touched, a few probes of its own.
std::string wrapper_script(const HostileRun& how) {
  std::string script = R"SH(#!/bin/sh
echo "ran|1"
for f in /usr/lib/x86_64-linux-gnu/libcuda.so.1 /usr/lib64/libcuda.so.1; do
  if [ -e "$f" ]; then
    msg=$(cat "$f" 2>&1 >/dev/null); echo "read|$f|$?|${msg##*: }"
    if grep -q graft-e2e-compat "$f"; then echo "compat|$f|1"; else echo "compat|$f|0"; fi
  fi
done
if grep -q cuda/compat /proc/self/mountinfo; then echo "compatmount|any|1"; else echo "compatmount|any|0"; fi
for d in /usr /usr/lib /usr/lib/x86_64-linux-gnu /usr/bin /run /run/nvidia-persistenced /lib /lib/firmware /lib/firmware/nvidia /lib/firmware/nvidia/560.35.03 /tmp; do
  if [ -d "$d" ] && [ ! -L "$d" ]; then echo "dirmode|$d|$(stat -c '%a %u %g' "$d")"; fi
done
)SH";
  for (const auto& marker : how.markers)
    script += fmt::format("if [ -e '{0}' ]; then echo 'marker|{0}|1'; else echo 'marker|{0}|0'; fi\n", marker);
  for (const auto& file : how.inspected)
    script += fmt::format(R"SH(echo "file|{0}|$(stat -c '%F %s' '{0}' 2>&1)"; echo "text|{0}|$(head -n 1 '{0}')"
msg=$( (: >> '{0}') 2>&1); echo "filewrite|{0}|$?|${{msg##*: }}"
)SH", file);
  if (how.full_probe) return script + "exec /bin/sh /graft-check.sh\n";
  return script + fmt::format(R"SH(msg=$(cat {0} 2>&1 >/dev/null </dev/null); echo "open|{0}|$?|${{msg##*: }}"
if grep -q libcuda.so.1 /etc/ld.so.cache; then echo "cache|/etc/ld.so.cache|1"; else echo "cache|/etc/ld.so.cache|0"; fi
echo "end|ok"
)SH", kPlannedGpuNode);
}

void check_nothing_reached_the_host(const ProbedContainer& container) {
  auto changed = sentinel().changes();
  INFO("host sentinel changes:\n" << fmt::format("{}", fmt::join(changed, "\n")));
  CHECK(changed.empty());
  sentinel().rebaseline();
  // In cgroup v2 mode the runtime runs in a private mount namespace (see
  // runtime.hpp), so this sees the host's namespace only; the sentinel
  // check above is what catches a write through the image in either mode.
  INFO("leaked mounts:\n" << fmt::format("{}", fmt::join(container.leaked_mounts, "\n")));
  CHECK(container.leaked_mounts.empty());
  CHECK(container.mount_count_change == 0);
}

void check_injected(const ProbedContainer& container) {
  CHECK(container.report.find("ran", "1"));
  CHECK(container.report.finished());
  CHECK(container.report.open_result(kPlannedGpuNode) == kENXIO);
  auto reads = container.report.subjects("read");
  CHECK(reads.size() == 1);
  for (const auto& path : reads) {
    INFO("libcuda.so.1 at " << path);
    CHECK(container.report.find("read", path)->at(0) == "0");
  }
  CHECK(audit_records(container.id, "applied").size() == 1);
}

}  // namespace

HostSentinel& sentinel() {
  static HostSentinel tree;
  return tree;
}

std::string trick_sentence(Trick trick, Shape shape) {
  switch (trick) {
    case Trick::absolute_symlink: return "is an absolute symlink to the host sentinel";
    case Trick::relative_chain: return "is a relative ../../.. symlink chain to the host sentinel";
    case Trick::loop: return "is a symlink loop";
    case Trick::dangling: return "is a dangling symlink into the host sentinel";
    case Trick::fifo: return "is a FIFO";
    case Trick::device_node: return "is a device node (c 1:3)";
    case Trick::wrong_type:
      return shape == Shape::directory ? "is a regular file where a directory is expected"
                                       : "is a directory where a file is expected";
  }
  return "?";
}

std::string trick_short(Trick trick, Shape shape) {
  switch (trick) {
    case Trick::absolute_symlink: return "absolute symlink";
    case Trick::relative_chain: return "../ chain";
    case Trick::loop: return "loop";
    case Trick::dangling: return "dangling";
    case Trick::fifo: return "FIFO";
    case Trick::device_node: return "device node";
    case Trick::wrong_type: return shape == Shape::directory ? "file for dir" : "dir for file";
  }
  return "?";
}

PlantedEntry plant_for(Trick trick, const Target& target) {
  const std::string host = target.shape == Shape::directory ? sentinel().path() : sentinel().file();
  std::string up;
  for (int i = 0; i < 40; ++i) up += "../";
  switch (trick) {
    case Trick::absolute_symlink: return {target.planted, PlantedKind::symlink, host};
    case Trick::relative_chain: return {target.planted, PlantedKind::symlink, up + host.substr(1)};
    case Trick::loop: return {target.planted, PlantedKind::symlink, base_name(target.planted)};
    case Trick::dangling:
      return {target.planted, PlantedKind::symlink, sentinel().path() + "/missing/" + base_name(target.planted)};
    case Trick::fifo: return {target.planted, PlantedKind::fifo, ""};
    case Trick::device_node: return {target.planted, PlantedKind::char_device, ""};
    case Trick::wrong_type:
      return target.shape == Shape::directory
                 ? PlantedEntry{target.planted, PlantedKind::file, "planted by a hostile image\n"}
                 : PlantedEntry{target.planted, PlantedKind::directory, ""};
  }
  return {};
}

std::string graft_error_line(const std::string& err) {
  auto at = err.find("graft: container");
  if (at == std::string::npos) return "";
  // runc quotes the hook's stderr: the line ends at a quote, a newline or an escaped "\n".
  auto end = std::min({err.find('"', at), err.find('\n', at), err.find("\\n", at)});
  return err.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

void record(const std::string& family, const std::string& target, const std::string& trick,
            const CaseOutcome& result) {
  std::cout << "hostile-outcome|" << family << "|" << target << "|" << trick << "|" << result.outcome
            << "|" << result.message << "\n";
}

CaseOutcome run_hostile(BundleSpec spec, const std::string& named, const HostileRun& how) {
  spec.args = {"/bin/sh", kWrapper};
  spec.rootfs_files.emplace_back(kWrapper, wrapper_script(how));
  CaseOutcome result;
  result.container = run_probed_container(how.runtime, how.mode, spec);
  const auto& container = result.container;
  INFO(runtime_name(how.runtime) << ", " << mode_name(how.mode));
  INFO("runtime exit " << container.run.exit_code << ", stderr: " << container.run.err);
  INFO("container output:\n" << container.run.out);
  check_nothing_reached_the_host(container);

  if (container.run.exit_code == 0) {
    result.outcome = "injected";
    check_injected(container);
    return result;
  }
  // A refusal: the container's process never ran.
  CHECK_FALSE(container.report.find("ran", "1"));
  CHECK(container.run.out.find("ran|1") == std::string::npos);
  result.message = graft_error_line(container.run.err);
  if (result.message.empty()) {
    result.outcome = std::string("refused by ") + std::string(runtime_name(how.runtime));
    result.message = first_line(container.run.err);
    return result;
  }
  result.outcome = "refused by graft";
  CHECK_THAT(result.message, Catch::Contains(named));
  CHECK(audit_records(container.id, "error").size() == 1);
  return result;
}

CaseOutcome run_hostile(BundleSpec spec, const std::string& named, bool full_probe,
                        const std::vector<std::string>& markers) {
  HostileRun how;
  how.full_probe = full_probe;
  how.markers = markers;
  return run_hostile(std::move(spec), named, how);
}

void run_family(const Family& family) {
  const std::string mode_tag = family.how.mode == CgroupMode::v1 ? "" : " (cgroup v2)";
  for (const auto& target : family.targets) {
    for (Trick trick : kTricks) {
      DYNAMIC_SECTION(target.shown << " " << trick_sentence(trick, target.shape)) {
        BundleSpec spec = family.spec;
        spec.planted.push_back(plant_for(trick, target));
        auto result = run_hostile(spec, target.shown, family.how);
        record(family.name + mode_tag, target.shown, trick_short(trick, target.shape), result);
        if (result.outcome == "injected" && family.check_injected != nullptr)
          family.check_injected(result.container);
      }
    }
  }
}

void run_unplanted(const Family& family) {
  auto result = run_hostile(family.spec, "", family.how);
  record(family.name, "(nothing planted)", "control", result);
  REQUIRE(result.outcome == "injected");
  if (family.check_injected != nullptr) family.check_injected(result.container);
}

}  // namespace graft::e2e
