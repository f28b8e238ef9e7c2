// SPDX-License-Identifier: Apache-2.0
// The global options are read leniently, for graft's own option and the log
// only: `-name` and `--name` alike, a value either as the next argument or
// after `=`, and they end at the first argument that is not one. The
// options of runc and crun that take a value are known, so their value is
// not taken for the end; any other option counts as one argument.
#include "runtime_command_line.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace graft::runtime {
namespace {

constexpr std::string_view kPolicyOption = "--graft-policy";

// runc's global options that take a value, and crun's (--cgroup-manager,
// --log-level, and argp's --program-name).
constexpr std::array<std::string_view, 8> kGlobalValueOptions = {
    "root", "log", "log-format", "criu", "rootless", "cgroup-manager", "log-level", "program-name"};

struct Option {
  std::string_view name;   // without its dashes
  bool has_inline_value;   // `--name=value`
  std::string_view value;  // the inline value
};

bool is_option(std::string_view arg) { return arg.size() > 1 && arg[0] == '-' && arg != "--"; }

Option split_option(std::string_view arg) {
  std::string_view name = arg.substr(arg.starts_with("--") ? 2 : 1);
  auto eq = name.find('=');
  if (eq == std::string_view::npos) return {name, false, {}};
  return {name.substr(0, eq), true, name.substr(eq + 1)};
}

bool takes_value(std::string_view name) {
  return std::find(kGlobalValueOptions.begin(), kGlobalValueOptions.end(), name) != kGlobalValueOptions.end();
}

class Parser {
 public:
  explicit Parser(std::span<const std::string> args) : args_(args) {}

  Result<RuntimeCommandLine> parse() {
    if (auto status = global_options(); !status) return status.error();
    for (; next_ < args_.size(); ++next_) keep(args_[next_]);
    return std::move(line_);
  }

 private:
  void keep(const std::string& arg) { line_.runtime_args.push_back(arg); }

  // The option at next_ and its value: kept, and the value returned ("" when none).
  std::string value_option(const Option& option) {
    keep(args_[next_]);
    if (option.has_inline_value) return std::string(option.value);
    if (next_ + 1 >= args_.size()) return "";
    keep(args_[++next_]);
    return args_[next_];
  }

  Status policy_option(std::string_view arg) {
    if (!line_.policy_path.empty()) return make_error("{} is given twice", kPolicyOption);
    std::string value;
    if (arg.size() > kPolicyOption.size()) {
      value = arg.substr(kPolicyOption.size() + 1);  // after "--graft-policy="
    } else if (next_ + 1 < args_.size()) {
      value = args_[++next_];
    }
    if (value.empty()) return make_error("{} needs a policy file", kPolicyOption);
    line_.policy_path = std::move(value);
    return ok_status();
  }

  // The global options, up to the first argument that is not one (a "--"
  // ends them too): kept as they are, graft's own taken out, and --log's
  // and --log-format's values recorded.
  Status global_options() {
    for (; next_ < args_.size(); ++next_) {
      std::string_view arg = args_[next_];
      if (arg == kPolicyOption || arg.starts_with(std::string(kPolicyOption) + "=")) {
        if (auto status = policy_option(arg); !status) return status;
        continue;
      }
      if (arg == "--" || !is_option(arg)) break;
      Option option = split_option(arg);
      if (!takes_value(option.name)) {
        keep(args_[next_]);
        continue;
      }
      std::string value = value_option(option);
      if (option.name == "log") line_.log_path = std::move(value);
      if (option.name == "log-format") line_.log_format = std::move(value);
    }
    return ok_status();
  }

  std::span<const std::string> args_;
  std::size_t next_ = 0;
  RuntimeCommandLine line_;
};

}  // namespace

Result<RuntimeCommandLine> parse_runtime_command_line(std::span<const std::string> args) {
  return Parser(args).parse();
}

}  // namespace graft::runtime
