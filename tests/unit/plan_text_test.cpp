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

}  // namespace

TEST_CASE("a plan line puts its label in 9 columns, its text in 64, then its origin", "[plan_text]") {
  Plan plan;
  plan.intent.request_notes = {"asked for GPU 1", std::string(70, 'x')};
  plan.warnings = {"no ld cache"};
  auto lines = lines_of(render_plan_text(plan));
  CHECK(std::find(lines.begin(), lines.end(), fmt::format("{:<9}{:<64} ", "request", "asked for GPU 1")) !=
        lines.end());
  // Longer text is not cut, and the origin follows one space after it.
  std::string long_line = fmt::format("{:<9}{} ", "", std::string(70, 'x'));
  CHECK(std::find(lines.begin(), lines.end(), long_line) != lines.end());
  CHECK(std::find(lines.begin(), lines.end(), fmt::format("{:<9}{:<64} ", "warning", "no ld cache")) !=
        lines.end());
}

TEST_CASE("a plan line with text beyond ASCII keeps its columns as a code point each", "[plan_text]") {
  Plan plan;
  plan.intent.request_notes = {"GPU für Ärztin"};
  auto lines = lines_of(render_plan_text(plan));
  std::string expected = fmt::format("{:<9}{:<64} ", "request", "GPU für Ärztin");
  CHECK(expected.size() == 9 + 64 + 1 + 2);  // two characters of two bytes each
  CHECK(std::find(lines.begin(), lines.end(), expected) != lines.end());
}
