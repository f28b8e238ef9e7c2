// SPDX-License-Identifier: Apache-2.0
// read_expectation: each [expect] key, patterns compiled once here so a bad
// one is an error at its file:line rather than a failing case.
#include "policy_cases/case_expect.hpp"

#include <regex>

#include "policy_cases/case_fields.hpp"

namespace graft {
namespace {

using namespace policy_parse;

Result<TextPattern> as_pattern(const TomlField& field) {
  auto text = as_string(field);
  if (!text) return text.error();
  try {
    std::regex compiled(*text, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    return field.error(fmt::format("invalid regular expression '{}': {}", *text, e.what()));
  }
  return TextPattern{*text};
}

// A device as "GPU" or "GPU:PARTITION"; an integer is a whole GPU.
Result<std::string> as_device(const TomlField& field) {
  if (const auto* index = field.node.as_integer()) {
    if (index->get() < 0) return field.error("a GPU index is not negative");
    return std::to_string(index->get());
  }
  auto text = as_string(field);
  if (!text) return field.type_error("a GPU index or \"GPU:PARTITION\"");
  static const std::regex shape("[0-9]+(:[0-9]+)?");
  if (!std::regex_match(*text, shape))
    return field.error(fmt::format("'{}': expected \"GPU\" or \"GPU:PARTITION\"", *text));
  return *text;
}

Status read_devices(const TomlField& field, Expectation& into) {
  into.devices.emplace();
  return read_each(field, [&](const TomlField& element) {
    auto device = as_device(element);
    if (!device) return Status(device.error());
    into.devices->push_back(*device);
    return ok_status();
  });
}

Status read_denied(const TomlField& field, Expectation& into) {
  static const KeyReader<ExpectedDenial> readers[] = {
      {"what", read_string<&ExpectedDenial::what>},
      {"reason", +[](const TomlField& f, ExpectedDenial& d,
                     const FileContext&) { return store(as_pattern(f), d.reason); }},
  };
  into.denied.emplace();
  return read_each(field, [&](const TomlField& element) {
    ExpectedDenial denial{"", TextPattern{""}};
    if (auto status = read_every_key(element, readers, denial); !status) return status;
    if (denial.what.empty()) return Status(element.error("a denial needs `what`"));
    into.denied->push_back(std::move(denial));
    return ok_status();
  });
}

Status read_refused(const TomlField& field, Expectation& into) {
  if (const auto* flag = field.node.as_boolean()) {
    into.refused = flag->get();
    into.refusal.reset();
    return ok_status();
  }
  if (!field.node.is_string()) return field.type_error("false, true or a pattern string");
  into.refused = true;
  return store(as_pattern(field), into.refusal);
}

Status read_actions(const TomlField& field, std::vector<ExpectedAction>& into) {
  static const KeyReader<ExpectedAction> readers[] = {
      {"kind", read_string<&ExpectedAction::kind>},
      {"target", read_string<&ExpectedAction::target>},
  };
  return read_each(field, [&](const TomlField& element) {
    ExpectedAction action;
    if (auto status = read_every_key(element, readers, action); !status) return status;
    if (action.target.empty()) return Status(element.error("an action needs `target`"));
    into.push_back(std::move(action));
    return ok_status();
  });
}

}  // namespace

Status read_expectation(const TomlField& field, Expectation& into) {
  static const KeyReader<Expectation> readers[] = {
      {"injected",
       +[](const TomlField& f, Expectation& e, const FileContext&) { return store(as_bool(f), e.injected); }},
      {"devices", +[](const TomlField& f, Expectation& e, const FileContext&) { return read_devices(f, e); }},
      {"capabilities", +[](const TomlField& f, Expectation& e,
                           const FileContext&) { return store(as_string_list(f), e.capabilities); }},
      {"denied", +[](const TomlField& f, Expectation& e, const FileContext&) { return read_denied(f, e); }},
      {"refused", +[](const TomlField& f, Expectation& e, const FileContext&) { return read_refused(f, e); }},
      {"error",
       +[](const TomlField& f, Expectation& e, const FileContext&) { return store(as_pattern(f), e.error); }},
      {"actions_present", +[](const TomlField& f, Expectation& e,
                              const FileContext&) { return read_actions(f, e.actions_present); }},
      {"actions_absent", +[](const TomlField& f, Expectation& e,
                             const FileContext&) { return read_actions(f, e.actions_absent); }},
  };
  if (const auto* array = field.node.as_array(); array && array->empty()) return ok_status();  // Lua's {}
  return read_every_key(field, readers, into);
}

}  // namespace graft
