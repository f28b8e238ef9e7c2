// SPDX-License-Identifier: Apache-2.0
// CUDA forward compatibility in the plan ([forward_compat] of the shipped
// policy): an image's /usr/local/cuda/compat/libcuda.so.<version> newer than
// the fake host's driver (560.35.03) makes the container's loader prefer that
// directory (an ld.so.conf.d entry and the image's libcuda.so.1 first in the
// ld cache refresh); anything else leaves the plan as it was, with the
// decision noted. The image is hostile: its compat directory is only listed
// inside the root and its files only lstat'ed, never opened or mounted.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include "plan_support.hpp"
#include "render/policy_render.hpp"
#include "fixture_files.hpp"
#include "temp_dir.hpp"

using namespace graft;
using namespace graft::testing;

namespace {

const char* const kConf = "/etc/ld.so.conf.d/00-compat-graft.conf";
const char* const kCompatEntry = "/usr/local/cuda/compat/libcuda.so.1";

const PlannedHost& compute_host() {
  static PlannedHost host = PlannedHost::make(1);
  return host;
}

// An image root whose compat directory holds libcuda.so.<version> (a
// regular file) and the libcuda.so.1 link to it, as the cuda-compat package
// installs them.
struct CompatImage {
  fixture::TempDir dir{"graft-compat-"};
  std::string root() const { return dir.path() + "/rootfs"; }
  std::string compat() const { return root() + "/usr/local/cuda/compat"; }

  explicit CompatImage(const std::string& version = "") {
    fixture::make_dirs(root() + "/etc");
    fixture::write_file(root() + "/etc/debian_version", "12.0\n");
    if (version.empty()) return;
    fixture::make_dirs(compat());
    fixture::write_file(compat() + "/libcuda.so." + version, "not an ELF file: never read\n");
    fixture::make_symlink("libcuda.so." + version, compat() + "/libcuda.so.1");
  }
};

Plan plan_in(const PlannedHost& host, const std::string& rootfs,
             const std::string& caps = "compute,utility") {
  auto request = request_from_flags({"NVIDIA_VISIBLE_DEVICES=0", "NVIDIA_DRIVER_CAPABILITIES=" + caps}, {},
                                    false, rootfs);
  if (!request) FAIL(request.error().message);
  auto evaluation = plan_container(*request, host.policy);
  if (!evaluation) FAIL(evaluation.error().message);
  return evaluation->plan;
}

bool noted(const Plan& plan, const std::string& text) {
  const auto& notes = plan.intent.request_notes;
  return std::any_of(notes.begin(), notes.end(),
                     [&](const std::string& note) { return note.find(text) != std::string::npos; });
}

bool prefers_compat(const Plan& plan) {
  auto refresh = actions_of(plan, ActionKind::ldcache_update);
  return has_target(plan, ActionKind::config_file, kConf) && refresh.size() == 1 &&
         refresh.front().content.starts_with(std::string(kCompatEntry) + "\n");
}

}  // namespace

TEST_CASE("an image's newer libcuda makes the container's loader prefer its compat directory",
          "[plan][forward-compat]") {
  const auto& host = compute_host();
  if (!nodes_available(host)) return;
  CompatImage image("575.57.08");
  Plan plan = plan_in(host, image.root());
  REQUIRE(plan.inject);
  const Action* conf = find_action(plan, ActionKind::config_file, kConf);
  REQUIRE(conf);
  CHECK(conf->content == "/usr/local/cuda/compat\n");
  CHECK(conf->plugin == "libraries");
  CHECK(conf->provenance.reason == "image libcuda.so 575.57.08 newer than host driver 560.35.03");
  CHECK(prefers_compat(plan));
  CHECK(noted(plan, "forward compat: image libcuda.so 575.57.08 newer than host driver 560.35.03: "
                    "/usr/local/cuda/compat preferred"));
}

TEST_CASE("the image's compat libraries are never mounted", "[plan][forward-compat]") {
  const auto& host = compute_host();
  if (!nodes_available(host)) return;
  CompatImage image("575.57.08");
  Plan plan = plan_in(host, image.root());
  for (const auto& action : actions_of(plan, ActionKind::bind_mount)) {
    CHECK(action.source.find(image.root()) == std::string::npos);
    CHECK_FALSE(action.target.starts_with("/usr/local/cuda"));
  }
}

TEST_CASE("an image's libcuda of the host's driver branch or older is not preferred, and the plan says why",
          "[plan][forward-compat]") {
  const auto& host = compute_host();
  if (!nodes_available(host)) return;
  for (const char* version : {"560.99.01", "550.54.15"}) {
    CompatImage image(version);
    Plan plan = plan_in(host, image.root());
    CHECK_FALSE(prefers_compat(plan));
    CHECK_FALSE(has_target(plan, ActionKind::config_file, kConf));
    CHECK(noted(plan, std::string("is not newer than host driver 560.35.03: not used")));
  }
}

TEST_CASE("an image without a compat directory gets the plan it always had", "[plan][forward-compat]") {
  const auto& host = compute_host();
  if (!nodes_available(host)) return;
  CompatImage image;
  Plan plan = plan_in(host, image.root());
  CHECK_FALSE(has_target(plan, ActionKind::config_file, kConf));
  CHECK_FALSE(noted(plan, "forward compat"));
}

TEST_CASE("without a container root, forward compat is not decided and the plan says so",
          "[plan][forward-compat]") {
  const auto& host = compute_host();
  if (!nodes_available(host)) return;
  Plan plan = host.plan({{"NVIDIA_VISIBLE_DEVICES", "0"}});
  CHECK_FALSE(has_target(plan, ActionKind::config_file, kConf));
  CHECK(noted(plan, "forward compat: not checked: no container root to look in"));
}

TEST_CASE("a container without the compute libraries gets no forward compat", "[plan][forward-compat]") {
  const auto& host = compute_host();
  if (!nodes_available(host)) return;
  CompatImage image("575.57.08");
  Plan plan = plan_in(host, image.root(), "utility");
  CHECK_FALSE(has_target(plan, ActionKind::config_file, kConf));
}

TEST_CASE("a site that turns forward compat off gets no preference", "[plan][forward-compat]") {
  static PlannedHost host = PlannedHost::make(1, false, "[forward_compat]\nenabled = false\n");
  if (!nodes_available(host)) return;
  CompatImage image("575.57.08");
  Plan plan = plan_in(host, image.root());
  CHECK_FALSE(prefers_compat(plan));
}

TEST_CASE("a newer libcuda without the libcuda.so.1 link beside it is not preferred",
          "[plan][forward-compat]") {
  const auto& host = compute_host();
  if (!nodes_available(host)) return;
  CompatImage image("575.57.08");
  REQUIRE(::unlink((image.compat() + "/libcuda.so.1").c_str()) == 0);
  Plan plan = plan_in(host, image.root());
  CHECK_FALSE(prefers_compat(plan));
  CHECK(noted(plan, "but the image has no libcuda.so.1 there: not used"));
}

// Hostile images.

TEST_CASE("a compat directory that is a symlink out of the root is resolved inside the root",
          "[plan][forward-compat][hostile]") {
  const auto& host = compute_host();
  if (!nodes_available(host)) return;
  CompatImage image;
  std::string outside = image.dir.path() + "/outside";
  fixture::make_dirs(outside);
  fixture::write_file(outside + "/libcuda.so.999.1", "host file\n");
  fixture::make_symlink("libcuda.so.999.1", outside + "/libcuda.so.1");
  fixture::make_dirs(image.root() + "/usr/local/cuda");
  fixture::make_symlink(outside, image.root() + "/usr/local/cuda/compat");
  Plan plan = plan_in(host, image.root());
  CHECK_FALSE(prefers_compat(plan));
  CHECK_FALSE(noted(plan, "999"));
}

TEST_CASE("only regular files decide: a FIFO or a symlink named like a newer libcuda counts for nothing",
          "[plan][forward-compat][hostile]") {
  const auto& host = compute_host();
  if (!nodes_available(host)) return;
  CompatImage image("550.54.15");
  REQUIRE(::mkfifo((image.compat() + "/libcuda.so.999").c_str(), 0644) == 0);
  fixture::make_symlink("/etc/passwd", image.compat() + "/libcuda.so.998.1");
  Plan plan = plan_in(host, image.root());  // opening the FIFO would block here
  CHECK_FALSE(prefers_compat(plan));
  CHECK(noted(plan, "libcuda.so.550.54.15 is not newer"));
}

TEST_CASE("a huge file named like a newer libcuda is judged by its name, never read",
          "[plan][forward-compat][hostile]") {
  const auto& host = compute_host();
  if (!nodes_available(host)) return;
  CompatImage image("575.57.08");
  std::string huge = image.compat() + "/libcuda.so.580.1";
  fixture::write_file(huge, "");
  REQUIRE(::truncate(huge.c_str(), off_t{1} << 40) == 0);  // sparse: 1 TiB claimed, nothing stored
  Plan plan = plan_in(host, image.root());
  CHECK(prefers_compat(plan));
  const Action* conf = find_action(plan, ActionKind::config_file, kConf);
  REQUIRE(conf);
  CHECK(conf->provenance.reason == "image libcuda.so 580.1 newer than host driver 560.35.03");
}

TEST_CASE("forward_compat paths must be absolute container paths", "[plan][forward-compat][policy]") {
  fixture::TempDir dir{"graft-compat-policy-"};
  std::string path = dir.path() + "/graft.toml";
  fixture::write_file(path, "[forward_compat]\ndir = \"usr/local/cuda/../compat\"\n");
  auto policy = load_policy(path, PolicySearch{{fixture::source_policy_dir()}});
  REQUIRE_FALSE(policy);
  CHECK(policy.error().message.find("forward_compat.dir: must be an absolute container path") !=
        std::string::npos);
}

TEST_CASE("graft policy show lists the forward_compat settings with where they were written",
          "[plan][forward-compat][policy-show]") {
  const auto& host = compute_host();
  auto json = render_policy_json(host.policy, {});
  CHECK(json["forward_compat"]["enabled"] == true);
  CHECK(json["forward_compat"]["dir"] == "/usr/local/cuda/compat");
  CHECK(json["forward_compat"]["library"] == "libcuda.so");
  CHECK(json["forward_compat"]["conf_file"] == "/etc/ld.so.conf.d/00-compat-graft.conf");
  CHECK_THAT(json["forward_compat"]["origin"].get<std::string>(), Catch::Contains("nvidia.toml:"));
}
