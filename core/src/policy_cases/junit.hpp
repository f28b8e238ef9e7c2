// SPDX-License-Identifier: Apache-2.0
// A policy test run as JUnit XML, the format CI systems read: one
// <testsuite>, one <testcase> per case, a <failure> holding the diff (or
// the error) for each failed one.
#pragma once

#include <string>
#include <string_view>

#include "policy_cases/suite.hpp"

namespace graft {

// Text made safe inside an XML attribute or element: & < > " ' escaped, tab
// and line breaks as character references (attributes keep them), other
// control characters, which XML 1.0 cannot carry, replaced by U+FFFD.
std::string xml_escape(std::string_view text);

std::string render_junit(const SuiteResult& result, const std::string& suite_name);

}  // namespace graft
