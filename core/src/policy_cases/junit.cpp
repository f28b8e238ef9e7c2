// SPDX-License-Identifier: Apache-2.0
#include "policy_cases/junit.hpp"

#include <fmt/format.h>

namespace graft {

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      // As character references, so an attribute keeps its line breaks.
      case '\t':
        out += "&#9;";
        break;
      case '\n':
        out += "&#10;";
        break;
      case '\r':
        out += "&#13;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20)
          out += "\xEF\xBF\xBD";
        else
          out += c;
    }
  }
  return out;
}

namespace {

// Rules that do not load are one error of the suite, not a failure per case.
std::string render_junit_load_error(const SuiteResult& result, const std::string& suite_name) {
  std::string name = xml_escape(suite_name), message = xml_escape(result.load_error);
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<testsuites tests=\"1\" failures=\"0\" errors=\"1\">\n<testsuite name=\"{0}\" tests=\"1\" failures=\"0\" "
      "errors=\"1\">\n  <testcase name=\"policy load\" classname=\"{0}\">\n"
      "    <error message=\"{1}\" type=\"load\">{1}</error>\n  </testcase>\n</testsuite>\n</testsuites>\n",
      name, message);
}

}  // namespace

std::string render_junit(const SuiteResult& result, const std::string& suite_name) {
  if (!result.load_error.empty()) return render_junit_load_error(result, suite_name);
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml += fmt::format(
      "<testsuites tests=\"{0}\" failures=\"{1}\">\n<testsuite name=\"{2}\" tests=\"{0}\" "
      "failures=\"{1}\">\n",
      result.cases.size(), result.failed(), xml_escape(suite_name));
  for (const auto& c : result.cases) {
    xml += fmt::format("  <testcase name=\"{}\" classname=\"{}\" file=\"{}\"", xml_escape(c.name),
                       xml_escape(suite_name), xml_escape(c.file));
    if (c.passed()) {
      xml += "/>\n";
      continue;
    }
    std::string text = c.failure_text();
    xml += fmt::format(">\n    <failure message=\"{}\" type=\"{}\">{}</failure>\n  </testcase>\n",
                       xml_escape(text), c.error.empty() ? "mismatch" : "error", xml_escape(text));
  }
  xml += "</testsuite>\n</testsuites>\n";
  return xml;
}

}  // namespace graft
