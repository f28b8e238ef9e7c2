// SPDX-License-Identifier: Apache-2.0
// Targets can land on mounts inside the root: a real
// volume in config.json (an rbind of a host directory at /data) and an image
// whose library directory is a symlink to it. RESOLVE_IN_ROOT alone would
// place graft's mountpoints and soname links in the volume, that is in the
// host directory; graft refuses the container in one line and the host
// directory is unchanged.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "fixture_files.hpp"
#include "harness/hostile_image.hpp"
#include "temp_dir.hpp"

using namespace graft::e2e;
namespace fs = std::filesystem;

namespace {

// The names and sizes in `dir`, recursively, for "unchanged".
std::vector<std::string> listing(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    std::error_code ec;
    auto size = entry.is_regular_file(ec) ? entry.file_size(ec) : 0;
    out.push_back(entry.path().string() + " " + std::to_string(size));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("an image symlink steering the library directory onto a volume is refused in one line, "
          "and the volume's host directory is unchanged",
          "[e2e][hostile][runc][v1][target-mount]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  graft::fixture::TempDir volume("graft-volume-");
  graft::fixture::write_file(volume.path() + "/data.txt", "the tenant's data\n");
  auto before = listing(volume.path());
  BundleSpec spec = gpu1_compute_utility();
  spec.volumes.emplace_back(volume.path(), "/data");
  spec.planted.push_back({"/usr/lib/x86_64-linux-gnu", PlantedKind::symlink, "/data"});
  auto result = run_hostile(spec, "/usr/lib/x86_64-linux-gnu");
  CHECK(result.outcome == "refused by graft");
  CHECK_THAT(result.message, Catch::Contains("is on another mount than the container root"));
  CHECK(result.message.find('\n') == std::string::npos);
  CHECK(listing(volume.path()) == before);
}
