// runc's options are Go flags (urfave/cli): `-name` and `--name` alike, a
// value either as the next argument or after `=`, and flags end at the first
// argument that is not one. Only the options that take a value need knowing,
// so their value is not taken for the command; an option graft does not know
// is passed on as a flag of one argument.
#include "runtime_command_line.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace graft::runtime {
namespace {

constexpr std::string_view kPolicyOption = "--graft-policy";

// runc's global options that take a value, and crun's (--cgroup-manager, --log-level).
constexpr std::array<std::string_view, 7> kGlobalValueOptions = {
    "root", "log", "log-format", "criu", "rootless", "cgroup-manager", "log-level"};

// Options of `create` and `run` that take a value.
constexpr std::array<std::string_view, 5> kCreateValueOptions = {
    "bundle", "b", "console-socket", "pid-file", "preserve-fds"};

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

template <std::size_t N>
bool takes_value(const std::array<std::string_view, N>& known, std::string_view name) {
  return std::find(known.begin(), known.end(), name) != known.end();
}

class Parser {
 public:
  explicit Parser(std::span<const std::string> args) : args_(args) {}

  Result<RuntimeCommandLine> parse() {
    if (auto status = global_options(); !status) return status.error();
    if (creates_container(line_.command)) {
      if (auto status = create_options(); !status) return status.error();
    }
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

  // The options from next_ up to the first argument that is not one (a
  // "--" is kept and ends them too): kept as they are, graft's own taken out
  // when `graft_options`, and the value of each of `value_options` handed
  // to `record(name, value)`.
  template <std::size_t N, typename Record>
  Status options(const std::array<std::string_view, N>& value_options, bool graft_options, Record record) {
    for (; next_ < args_.size(); ++next_) {
      std::string_view arg = args_[next_];
      if (graft_options && (arg == kPolicyOption || arg.starts_with(std::string(kPolicyOption) + "="))) {
        if (auto status = policy_option(arg); !status) return status;
        continue;
      }
      if (arg == "--") {
        keep(args_[next_++]);
        break;
      }
      if (!is_option(arg)) break;
      Option option = split_option(arg);
      if (!takes_value(value_options, option.name)) {
        keep(args_[next_]);
        continue;
      }
      record(option.name, value_option(option));
    }
    return ok_status();
  }

  // The global options, then the command.
  Status global_options() {
    auto status = options(kGlobalValueOptions, true, [&](std::string_view name, std::string value) {
      if (name == "log") line_.log_path = std::move(value);
      if (name == "log-format") line_.log_format = std::move(value);
    });
    if (!status) return status;
    if (next_ < args_.size()) {
      line_.command = args_[next_];
      keep(args_[next_++]);
    }
    return ok_status();
  }

  // create's or run's options, then the container id.
  Status create_options() {
    auto status = options(kCreateValueOptions, false, [&](std::string_view name, std::string value) {
      if (name == "bundle" || name == "b") line_.bundle = std::move(value);
    });
    if (!status) return status;
    if (next_ < args_.size()) line_.container_id = args_[next_];
    return ok_status();
  }

  std::span<const std::string> args_;
  std::size_t next_ = 0;
  RuntimeCommandLine line_;
};

}  // namespace

bool creates_container(const std::string& command) { return command == "create" || command == "run"; }

Result<RuntimeCommandLine> parse_runtime_command_line(std::span<const std::string> args) {
  return Parser(args).parse();
}

}  // namespace graft::runtime
