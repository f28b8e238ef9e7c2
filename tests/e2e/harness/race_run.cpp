// SPDX-License-Identifier: Apache-2.0
#include "race_run.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "fixture_files.hpp"
#include "gpu_host.hpp"
#include "host_mounts.hpp"
#include "hostile_image.hpp"
#include "plan_probe.hpp"
#include "probed_container.hpp"
#include "race_hook.hpp"

namespace graft::e2e {
namespace {

constexpr const char* kScript = "/graft-race.sh";

std::string leaf_of(const std::string& path) { return path.substr(path.rfind('/') + 1); }

std::string link_value(LinkForm form, const RaceTarget& target) {
  const std::string host = sentinel().path() + target.mirror;
  if (form == LinkForm::absolute) return host;
  std::string up;
  for (int i = 0; i < 40; ++i) up += "../";
  return up + host.substr(1);
}

// Where the planner puts the libraries: the multiarch directory when the
// image has it (or /etc/debian_version), else /usr/lib64. The image decides,
// and an image that flips /usr or /etc can make graft see either.
constexpr const char* kLibraryDirs[] = {"/usr/lib/x86_64-linux-gnu", "/usr/lib64"};
constexpr const char* kLibrary = "libcuda.so.560.35.03";
constexpr const char* kSoname = "libcuda.so.1";

// A bind graft made reads with content: the mountpoint graft creates is
// empty; a socket only has to be one.
std::string read_probe(const std::string& file) {
  return fmt::format(R"SH(if [ -S '{0}' ]; then echo "read|{0}|0|socket"
elif [ ! -s '{0}' ]; then echo "read|{0}|1|missing or empty (no bind on the mountpoint)"
else msg=$(cat '{0}' 2>&1 >/dev/null); echo "read|{0}|$?|${{msg##*: }}"; fi
)SH", file);
}

// Says it ran, whether the raced path is the real directory again, whether
// each bind reads, which library directory holds libcuda, whether the soname
// link graft made there reads, and whether the ld cache lists it.
std::string container_script(const RaceTarget& target) {
  std::string script = fmt::format(R"SH(#!/bin/sh
echo "ran|1"
if [ -d '{0}' ] && [ ! -L '{0}' ]; then echo "kind|{0}|directory"; else echo "kind|{0}|other"; fi
)SH", target.path);
  for (const auto& file : target.probes) script += read_probe(file);
  for (const std::string dir : kLibraryDirs) {
    const std::string library = dir + "/" + kLibrary, soname = dir + "/" + kSoname;
    script += fmt::format("if [ -e '{0}' ] || [ -L '{1}' ]; then\necho 'libdir|{2}|1'\n", library,
                          soname, dir) +
              read_probe(library) +
              fmt::format(R"SH(if cat '{0}' >/dev/null 2>&1; then echo "soname|{0}|1"; else echo "soname|{0}|0"; fi
fi
)SH", soname);
  }
  return script + R"SH(if ldconfig -p | grep -q libcuda.so.1; then echo "cache|ldconfig -p|1"; else echo "cache|ldconfig -p|0"; fi
echo "end|ok"
)SH";
}

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A mount as the copy of a namespace shows it too: root, mount point and
// everything after the " - " separator (type, source, superblock options),
// not the IDs and propagation fields that differ between namespaces.
std::string mount_identity(const std::string& line) {
  std::istringstream fields(line);
  std::string id, parent, device, root, point;
  fields >> id >> parent >> device >> root >> point;
  auto separator = line.find(" - ");
  return root + " " + point + (separator == std::string::npos ? "" : line.substr(separator));
}

// Mounts of the container's namespace that are neither inside the rootfs nor
// copies of the host's own mounts, nor a runtime's state mounts that a test
// running beside this one made on the host meanwhile (host_mounts.hpp).
std::vector<std::string> mounts_outside(const std::vector<std::string>& container_mounts,
                                        const std::string& rootfs,
                                        const std::set<std::string>& host_mounts) {
  std::vector<std::string> outside;
  for (const auto& line : container_mounts) {
    std::string point = mount_point_of(line);
    if (at_or_under(point, rootfs)) continue;
    // Another test's runtime state (podman's shm under its graft-e2e-state-
    // dir, runc's own mounts) was copied into this namespace when it was
    // made and may be gone from the host's by now; never graft's target.
    if (host_mounts.count(mount_identity(line)) || is_runtime_state_mount(line)) continue;
    outside.push_back("container mount outside the rootfs: " + line);
  }
  return outside;
}

std::set<std::string> host_mount_identities() {
  std::set<std::string> identities;
  for (const auto& line : read_lines("/proc/self/mountinfo")) identities.insert(mount_identity(line));
  return identities;
}

// An injection is complete: the container reads every bind, finds
// libcuda.so.1 and sees it in ldconfig -p. (Before the ldcache plugin checked
// the cache it wrote, an image racing its library directory could get the
// last two wrong while graft exited 0.) Records where libcuda was found.
void check_injected(RaceRun& result, const RaceTarget& target) {
  const ProbeReport report = ProbeReport::parse(result.runtime.out);
  CHECK(report.find("ran", "1"));
  CHECK(report.finished());
  auto kind = report.find("kind", target.path);
  REQUIRE(kind);
  CHECK(kind->at(0) == "directory");
  for (const auto& file : report.subjects("read")) {
    INFO("reading " << file << " in the container");
    CHECK(report.find("read", file)->at(0) == "0");
  }
  CHECK(audit_records(result.id, "applied").size() == 1);
  auto library_dirs = report.subjects("libdir");
  REQUIRE(library_dirs.size() == 1);
  result.library_dir = library_dirs[0];
  auto soname = report.find("soname", result.library_dir + "/" + kSoname);
  auto cache = report.find("cache", "ldconfig -p");
  REQUIRE(soname);
  REQUIRE(cache);
  INFO("libcuda.so.1 reads: " << soname->at(0) << ", ldconfig -p lists it: " << cache->at(0));
  CHECK(soname->at(0) == "1");
  CHECK(cache->at(0) == "1");
  result.outcome = "injected";
}

void check_refused(const CommandResult& run, const RaceRun& result, const RaceTarget& target,
                   const std::string& id) {
  CHECK(run.out.find("ran|1") == std::string::npos);
  INFO("graft's error line: " << result.message);
  CHECK_FALSE(result.message.empty());
  CHECK_THAT(result.message, Catch::Contains(target.path));
  CHECK(result.message.find('\n') == std::string::npos);
  CHECK(audit_records(id, "error").size() == 1);
}

}  // namespace

std::string link_form_name(LinkForm form) {
  return form == LinkForm::absolute ? "absolute" : "../ chain";
}

RaceRun start_raced_container(const RaceTarget& target, LinkForm form,
                              const std::string& after_graft) {
  RaceRun result;
  HostMounts host_mounts;
  const std::set<std::string> host_identities = host_mount_identities();
  result.id = unique_container_id("race");
  BundleSpec spec = gpu1_compute_utility();
  spec.args = {"/bin/sh", kScript};
  spec.rootfs_files.emplace_back(kScript, container_script(target));
  spec.cgroups_path = "/" + result.id;
  spec.hook_policy = gpu_host().policy;
  {
    OciBundle bundle(spec);
    const std::string rootfs = bundle.rootfs();
    const std::string real = rootfs + target.path;
    const std::string link_name = ".graft-race-" + leaf_of(target.path);
    if (!std::filesystem::is_directory(real)) fixture::make_dirs(real);
    bundle.plant({parent_dir(target.path) + "/" + link_name, PlantedKind::symlink,
                  link_value(form, target)});
    const std::string mountinfo_copy = bundle.path() + "/container-mountinfo";
    RaceSignals signals = RaceSignals::make_in(bundle.path());
    install_race_hook(bundle.path(), spec.hook_policy, signals, mountinfo_copy, after_graft);

    Container container(Runtime::runc, CgroupMode::v1, result.id);
    DirectorySwapper swapper(parent_dir(real), leaf_of(real), link_name, signals);
    result.runtime = container.run(bundle.path());
    result.tally = swapper.finish();
    auto container_mounts = read_lines(mountinfo_copy);
    result.container_mounts = container_mounts.size();
    result.escapes = mounts_outside(container_mounts, rootfs, host_identities);
  }  // the container is deleted and the bundle removed here

  for (const auto& change : sentinel().changes()) result.escapes.push_back("host sentinel: " + change);
  sentinel().rebaseline();
  for (const auto& line : host_mounts.added()) result.escapes.push_back("host mount: " + line);
  if (host_mounts.count_change() != 0)
    result.escapes.push_back(fmt::format("host mount count changed by {}", host_mounts.count_change()));
  return result;
}

RaceRun run_raced_container(const RaceTarget& target, LinkForm form) {
  RaceRun result = start_raced_container(target, form);
  const auto& run = result.runtime;
  INFO("runc exit " << run.exit_code << ", stderr: " << run.err);
  INFO("container output:\n" << run.out);
  INFO("swapper: " << result.tally.swaps << " swaps" << (result.tally.failure.empty() ? "" : ", ")
                   << result.tally.failure);
  INFO("escapes:\n" << fmt::format("{}", fmt::join(result.escapes, "\n")));
  CHECK(result.escapes.empty());
  CHECK(result.tally.failure.empty());
  CHECK(result.tally.raced);
  CHECK(result.tally.restored);
  // The hook's copy of the container's mount table is what the escape check
  // above relies on: an empty copy would pass it vacuously.
  CHECK(result.container_mounts > 5);

  if (run.exit_code == 0) {
    check_injected(result, target);
  } else {
    result.outcome = "refused";
    result.message = graft_error_line(run.err);
    check_refused(run, result, target, result.id);
  }
  return result;
}

}  // namespace graft::e2e
