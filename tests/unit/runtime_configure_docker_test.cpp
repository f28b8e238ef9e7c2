// SPDX-License-Identifier: Apache-2.0
// `graft runtime configure --runtime docker`: graft's runtime merged into
// daemon.json as a site has it (NVIDIA's runtime, unrelated keys in their
// order), once, and taken out again exactly.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "runtime_config/docker_config.hpp"

using graft::runtime_config::docker_configured;
using graft::runtime_config::docker_removed;
using graft::runtime_config::RuntimeEntry;

namespace {

const std::string kSiteDaemonJson = R"({
    "log-driver": "journald",
    "runtimes": {
        "nvidia": {
            "path": "nvidia-container-runtime",
            "runtimeArgs": []
        }
    },
    "storage-driver": "overlay2"
}
)";

RuntimeEntry docker_entry() {
  RuntimeEntry entry;
  entry.binary = "/usr/bin/graft-runtime";
  return entry;
}

std::string configured_daemon_json(const std::optional<std::string>& before, const RuntimeEntry& entry) {
  auto after = docker_configured(before, entry);
  INFO((after ? std::string() : after.error().message));
  REQUIRE(after);
  return *after;
}

}  // namespace

TEST_CASE("docker: graft's runtime joins the runtimes map beside nvidia's, every other key kept in order",
          "[runtime-configure]") {
  auto after = configured_daemon_json(kSiteDaemonJson, docker_entry());
  CHECK(after == R"({
    "log-driver": "journald",
    "runtimes": {
        "nvidia": {
            "path": "nvidia-container-runtime",
            "runtimeArgs": []
        },
        "graft": {
            "path": "/usr/bin/graft-runtime"
        }
    },
    "storage-driver": "overlay2"
}
)");
}

TEST_CASE("docker: a missing daemon.json is created with graft's runtime alone", "[runtime-configure]") {
  auto after = configured_daemon_json(std::nullopt, docker_entry());
  CHECK(after == "{\n  \"runtimes\": {\n    \"graft\": {\n      \"path\": \"/usr/bin/graft-runtime\"\n    }\n  }\n}\n");
}

TEST_CASE("docker: an empty daemon.json is taken as {}", "[runtime-configure]") {
  CHECK(configured_daemon_json(std::string("\n"), docker_entry()) ==
        configured_daemon_json(std::nullopt, docker_entry()));
}

TEST_CASE("docker: a policy other than the site's goes in runtimeArgs", "[runtime-configure]") {
  auto entry = docker_entry();
  entry.arguments = {"--graft-policy", "/etc/graft/site.toml"};
  auto after = nlohmann::json::parse(configured_daemon_json(std::nullopt, entry));
  CHECK(after["runtimes"]["graft"]["runtimeArgs"] == nlohmann::json({"--graft-policy", "/etc/graft/site.toml"}));
}

TEST_CASE("docker: --set-as-default and --cdi add default-runtime and features.cdi, and only when asked",
          "[runtime-configure]") {
  auto plain = nlohmann::json::parse(configured_daemon_json(kSiteDaemonJson, docker_entry()));
  CHECK_FALSE(plain.contains("default-runtime"));
  CHECK_FALSE(plain.contains("features"));
  auto entry = docker_entry();
  entry.set_as_default = true;
  entry.cdi = true;
  auto asked = nlohmann::json::parse(configured_daemon_json(kSiteDaemonJson, entry));
  CHECK(asked["default-runtime"] == "graft");
  CHECK(asked["features"]["cdi"] == true);
}

TEST_CASE("docker: a second run returns the file byte for byte", "[runtime-configure]") {
  auto once = configured_daemon_json(kSiteDaemonJson, docker_entry());
  CHECK(configured_daemon_json(once, docker_entry()) == once);
  // The same JSON written another way by hand is not rewritten either.
  std::string compact = R"({"runtimes":{"graft":{"path":"/usr/bin/graft-runtime"}}})";
  CHECK(configured_daemon_json(compact, docker_entry()) == compact);
}

TEST_CASE("docker: malformed JSON, a non-object or a non-object runtimes is an error naming the problem",
          "[runtime-configure]") {
  auto broken = docker_configured(std::string("{\"runtimes\": {,}"), docker_entry());
  REQUIRE_FALSE(broken);
  CHECK_THAT(broken.error().message, Catch::Contains("not valid JSON") && Catch::Contains("nothing was changed"));
  auto array = docker_configured(std::string("[]"), docker_entry());
  REQUIRE_FALSE(array);
  CHECK_THAT(array.error().message, Catch::Contains("not a JSON object"));
  auto runtimes = docker_configured(std::string("{\"runtimes\": []}"), docker_entry());
  REQUIRE_FALSE(runtimes);
  CHECK_THAT(runtimes.error().message, Catch::Contains("\"runtimes\" is not an object"));
}

TEST_CASE("docker: --remove after configure restores the site's file byte for byte", "[runtime-configure]") {
  auto entry = docker_entry();
  entry.set_as_default = true;
  auto removed = docker_removed(configured_daemon_json(kSiteDaemonJson, entry), entry);
  REQUIRE(removed);
  CHECK(removed->after == kSiteDaemonJson);
  CHECK(removed->kept.empty());
}

TEST_CASE("docker: --remove of a daemon.json graft created removes the file", "[runtime-configure]") {
  auto removed = docker_removed(configured_daemon_json(std::nullopt, docker_entry()), docker_entry());
  REQUIRE(removed);
  CHECK_FALSE(removed->after);
}

TEST_CASE("docker: --remove leaves a graft runtime edited by hand, and the default that names it",
          "[runtime-configure]") {
  std::string edited = R"({
  "default-runtime": "graft",
  "runtimes": {
    "graft": {
      "path": "/opt/site/graft-wrapper"
    }
  }
}
)";
  auto removed = docker_removed(edited, docker_entry());
  REQUIRE(removed);
  CHECK(removed->after == edited);
  CHECK_THAT(removed->kept, Catch::Contains("runtimes.graft is not what graft writes"));
}

TEST_CASE("docker: --remove keeps features.cdi, which other CDI specs may need", "[runtime-configure]") {
  auto entry = docker_entry();
  entry.cdi = true;
  auto removed = docker_removed(configured_daemon_json(kSiteDaemonJson, entry), entry);
  REQUIRE(removed);
  REQUIRE(removed->after);
  auto after = nlohmann::json::parse(*removed->after);
  CHECK(after["features"]["cdi"] == true);
  CHECK_FALSE(after["runtimes"].contains("graft"));
}
