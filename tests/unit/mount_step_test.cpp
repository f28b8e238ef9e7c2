// SPDX-License-Identifier: Apache-2.0
// The mount helpers of plugins/common name the step that failed and keep its
// errno (plugins/common/mount_step.hpp), so what failed is a value, not a
// phrase of the message.
#include <catch2/catch.hpp>

#include <cerrno>
#include <string>

#include "detached_mount.hpp"
#include "mount_step.hpp"
#include "mount_support.hpp"
#include "root_mount.hpp"
#include "source_check.hpp"

using namespace graft;
using namespace graft::plugin;

TEST_CASE("A host source that does not exist fails at the open step with ENOENT", "[plugins][mount]") {
  auto source = open_source("/nonexistent/graft-mount-step", {FileType::regular});
  REQUIRE_FALSE(source.ok());
  CHECK(source.error().step == mount_step::open_source);
  CHECK(source.error().code == ENOENT);
}

TEST_CASE("A host source of another type is refused with no errno and no step", "[plugins][mount]") {
  auto source = open_source("/", {FileType::regular});
  REQUIRE_FALSE(source.ok());
  CHECK(source.error().code == 0);
  CHECK(source.error().step.empty());
}

TEST_CASE("The mount id of an fd that is not open fails at the statx step with EBADF", "[plugins][mount]") {
  auto id = mount_id(-1, "/closed");
  REQUIRE_FALSE(id.ok());
  CHECK(id.error().step == mount_step::mount_id);
  CHECK(id.error().code == EBADF);
}

TEST_CASE("Cloning a mount of an fd that is not open fails at the clone step with EBADF",
          "[plugins][mount]") {
  GRAFT_REQUIRE_MOUNTS();
  auto mount = clone_mount(-1, "/closed");
  REQUIRE_FALSE(mount.ok());
  CHECK(mount.error().step == mount_step::clone);
  CHECK(mount.error().code == EBADF);
}

TEST_CASE("Attaching a mount onto an fd that is not open fails at the attach step with EBADF",
          "[plugins][mount]") {
  GRAFT_REQUIRE_MOUNTS();
  auto attached = attach_mount(-1, -1, "/closed");
  REQUIRE_FALSE(attached.ok());
  CHECK(attached.error().step == mount_step::attach);
  CHECK(attached.error().code == EBADF);
}

TEST_CASE("A tmpfs parameter the kernel refuses fails at the configure step with EINVAL",
          "[plugins][mount]") {
  GRAFT_REQUIRE_MOUNTS();
  auto tmpfs = make_tmpfs({{"size", "not-a-size"}}, 0, "/proc/driver/x");
  REQUIRE_FALSE(tmpfs.ok());
  CHECK(tmpfs.error().step == mount_step::configure_tmpfs);
  CHECK(tmpfs.error().code == EINVAL);
}
