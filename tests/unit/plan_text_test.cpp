// SPDX-License-Identifier: Apache-2.0
// The plan as text (core/src/render/plan_text.cpp): each decision and action
// on one line, its label in 9 columns and its text in 64 (as fmt counts
// columns, one a code point), then where it came from.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <sstream>
#include <string>
#include <vector>

#include "render/render.hpp"

using namespace graft;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

Denial plan_text_denial(std::string what) {
  return Denial{std::move(what), Reason{"lease", Origin{"/p/lease.lua", 7, 0}, "lease"}};
}

}  // namespace

TEST_CASE("a plan line puts its label in 9 columns, its text in 64, then its origin", "[plan_text]") {
  Plan plan;
  plan.intent.denials = {plan_text_denial("GPU 3"), plan_text_denial(std::string(70, 'x'))};
  auto lines = lines_of(render_plan_text(plan));
  CHECK(std::find(lines.begin(), lines.end(), fmt::format("{:<9}{:<64} lease.lua:7", "denied", "GPU 3  (lease)")) !=
        lines.end());
  // Longer text is not cut, and the origin follows one space after it.
  std::string long_line = fmt::format("{:<9}{}  (lease) lease.lua:7", "", std::string(70, 'x'));
  CHECK(std::find(lines.begin(), lines.end(), long_line) != lines.end());
}

TEST_CASE("a plan line with text beyond ASCII keeps its columns as a code point each", "[plan_text]") {
  Plan plan;
  plan.intent.denials = {plan_text_denial("GPU für Ärztin")};
  auto lines = lines_of(render_plan_text(plan));
  std::string expected = fmt::format("{:<9}{:<64} lease.lua:7", "denied", "GPU für Ärztin  (lease)");
  CHECK(expected.size() == 9 + 64 + 1 + 11 + 2);  // two characters of two bytes each
  CHECK(std::find(lines.begin(), lines.end(), expected) != lines.end());
}

TEST_CASE("no plan line ends in a space: a request note or warning without an origin ends at its text",
          "[plan_text]") {
  Plan plan;
  plan.intent.request_notes = {"asked for GPU 1", "and compute"};
  plan.warnings = {"no ld cache"};
  auto lines = lines_of(render_plan_text(plan));
  CHECK(std::find(lines.begin(), lines.end(), "request  asked for GPU 1") != lines.end());
  CHECK(std::find(lines.begin(), lines.end(), "         and compute") != lines.end());
  CHECK(std::find(lines.begin(), lines.end(), "warning  no ld cache") != lines.end());
  for (const auto& line : lines) {
    INFO(line);
    CHECK_FALSE(line.ends_with(' '));
  }
}

TEST_CASE("a group whose actions came for different reasons is headed by its name, each line with its reason",
          "[plan_text]") {
  Plan plan;
  Origin compute{"/p/vendor.toml", 40, 0}, video{"/p/vendor.toml", 101, 0};
  plan.actions = {
      Action{.kind = ActionKind::bind_mount, .target = "/usr/lib/libcuda.so.1",
             .provenance = {"video", "via compute.libraries", compute}},
      Action{.kind = ActionKind::bind_mount, .target = "/usr/lib/libnvcuvid.so.1", .provenance = {"video", "video", video}},
  };
  std::string text = render_plan_text(plan);
  CHECK_THAT(text, Catch::Contains("\n[video]\n"));
  CHECK_THAT(text, !Catch::Contains("[video]  via compute.libraries"));
  auto lines = lines_of(text);
  auto cuda = std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return l.find("libcuda") != std::string::npos; });
  auto cuvid = std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return l.find("libnvcuvid") != std::string::npos; });
  REQUIRE(cuda != lines.end());
  REQUIRE(cuvid != lines.end());
  CHECK(cuda->ends_with("vendor.toml:40  via compute.libraries"));
  CHECK(cuvid->ends_with("vendor.toml:101"));
}
