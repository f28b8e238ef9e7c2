// SPDX-License-Identifier: Apache-2.0
// The C side of a C++ mechanism plugin, written once. A plugin is a class P:
//
//   static Result<std::unique_ptr<P>> create(const Host& host, const nlohmann::json& config);
//   explicit P(const Host& host);  // instead of create, for a plugin without configuration
//   Status apply(const graft_action&, const graft_apply_context&);
//   Status prepare(const graft_action&, const graft_apply_context&);  // optional
//   Status finish(const graft_apply_context&);                        // optional
//   Status verify(const graft_action&, const graft_apply_context&,
//                 const Findings&);                                   // optional (ABI 1.3)
//
// and GRAFT_PLUGIN(P, "name", "version", kinds...) defines graft_plugin_entry.
// Errors are values inside the plugin; an escaping exception is caught here
// and becomes last_error, so nothing C++ crosses the ABI.
#pragma once

#include <cerrno>
#include <cstdint>
#include <exception>
#include <initializer_list>
#include <string_view>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "graft/base/error.hpp"
#include "graft/plugin.h"

namespace graft::plugin {

// The host services a plugin was given, with C++ conveniences.
class Host {
 public:
  explicit Host(const graft_host_services* services) : services_(services) {}
  void log(int level, const std::string& message) const;
  void debug(const std::string& message) const { log(GRAFT_LOG_DEBUG, message); }
  // resolve_in_root: a new fd or -errno (see plugin.h). The host already
  // retried an EAGAIN (graft_base's retry_on_eagain), so one that arrives
  // here is final.
  int resolve_in_root(int root_fd, const std::string& path, int flags) const;

 private:
  const graft_host_services* services_;
};

// Where a plugin's verify reports (graft_finding_sink), one call a line.
class Findings {
 public:
  explicit Findings(const graft_finding_sink* sink) : sink_(sink) {}
  // The container no longer has what the action gave it.
  void drift(const std::string& expected, const std::string& found) const;
  // The plugin cannot tell whether it still has it: `why` says what and why.
  void unknown(const std::string& expected, const std::string& why) const;
  // The plugin has no check for this action (a kind it executes, unchecked).
  void not_checked(const std::string& why) const;

 private:
  void report(std::uint32_t kind, const std::string& expected, const std::string& found) const;
  const graft_finding_sink* sink_;
};

// Strings of a NULL-terminated C list, and whether it holds `word`.
bool has_option(const graft_action& action, const char* word);

// Parses the host's config text; the host already validated it as an object.
Result<nlohmann::json> parse_config(const char* config_json);

// Refuses a config key outside `known`, so a typo in [plugins.config.NAME]
// fails the hook instead of being ignored.
Status check_config_keys(const nlohmann::json& config, std::initializer_list<std::string_view> known);

template <class P>
struct Glue {
  struct Holder {
    explicit Holder(const graft_host_services* services) : host(services) {}
    Host host;
    std::unique_ptr<P> plugin;
    std::string error;
  };

  // A failure's message stays for last_error; its errno is left in errno
  // as the call returns (plugin.h, graft_status), 0 when it has none.
  static graft_status failed(Holder& holder, const Error& error) {
    holder.error = error.message;
    errno = error.code;
    return GRAFT_ERROR;
  }

  static graft_status failed(Holder& holder, std::string message) {
    return failed(holder, Error{std::move(message)});
  }

  template <class Call>
  static graft_status guarded(void* state, Call&& call) {
    auto* holder = static_cast<Holder*>(state);
    if (holder == nullptr || !holder->plugin) return GRAFT_ERROR;
    try {
      Status status = call(*holder->plugin);
      if (status.ok()) return GRAFT_OK;
      return failed(*holder, status.error());
    } catch (const std::exception& e) {
      return failed(*holder, std::string("internal error: ") + e.what());
    } catch (...) {
      return failed(*holder, "internal error");
    }
  }

  // A plugin without create takes no configuration: any key is refused.
  static Result<std::unique_ptr<P>> create(const Host& host, const nlohmann::json& config) {
    if constexpr (requires { P::create(host, config); }) {
      return P::create(host, config);
    } else {
      if (auto keys = check_config_keys(config, {}); !keys) return keys.error();
      return std::make_unique<P>(host);
    }
  }

  static graft_status created(Holder& holder, const char* config_json) {
    try {
      auto config = parse_config(config_json);
      if (!config.ok()) return failed(holder, config.error());
      auto plugin = create(holder.host, *config);
      if (!plugin.ok()) return failed(holder, plugin.error());
      holder.plugin = std::move(*plugin);
      return GRAFT_OK;
    } catch (const std::exception& e) {
      return failed(holder, std::string("internal error: ") + e.what());
    } catch (...) {
      return failed(holder, "internal error");
    }
  }

  static graft_status init(const graft_host_services* services, const char* config_json,
                           void** state, const char** error) {
    auto* holder = new (std::nothrow) Holder(services);
    *state = holder;
    if (holder == nullptr) {
      *error = "out of memory";
      errno = ENOMEM;
      return GRAFT_ERROR;
    }
    graft_status status = created(*holder, config_json);
    if (status != GRAFT_OK) *error = holder->error.c_str();
    return status;
  }

  static graft_status apply(void* state, const graft_action* action, const graft_apply_context* context) {
    return guarded(state, [&](P& p) { return p.apply(*action, *context); });
  }

  static graft_status prepare(void* state, const graft_action* action, const graft_apply_context* context) {
    return guarded(state, [&](P& p) -> Status {
      if constexpr (requires { p.prepare(*action, *context); })
        return p.prepare(*action, *context);
      else
        return ok_status();
    });
  }

  static graft_status finish(void* state, const graft_apply_context* context) {
    return guarded(state, [&](P& p) -> Status {
      if constexpr (requires { p.finish(*context); })
        return p.finish(*context);
      else
        return ok_status();
    });
  }

  static constexpr bool kVerifies =
      requires(P& p, const graft_action& a, const graft_apply_context& c, const Findings& f) {
        p.verify(a, c, f);
      };

  static graft_status verify(void* state, const graft_action* action, const graft_apply_context* context,
                    const graft_finding_sink* sink) {
    return guarded(state, [&](P& p) -> Status {
      if constexpr (kVerifies)
        return p.verify(*action, *context, Findings(sink));
      else
        return ok_status();
    });
  }

  static void destroy(void* state) { delete static_cast<Holder*>(state); }

  static const char* last_error(void* state) {
    auto* holder = static_cast<Holder*>(state);
    return holder == nullptr ? nullptr : holder->error.c_str();
  }

  static graft_plugin descriptor(const char* name, const char* version, const uint32_t* kinds,
                                 uint32_t kind_count) {
    graft_plugin d{};
    d.abi_major = GRAFT_PLUGIN_ABI_MAJOR;
    d.abi_minor = GRAFT_PLUGIN_ABI_MINOR;
    d.struct_size = sizeof(graft_plugin);
    d.name = name;
    d.version = version;
    d.kinds = kinds;
    d.kind_count = kind_count;
    d.init = &init;
    d.apply = &apply;
    d.destroy = &destroy;
    d.last_error = &last_error;
    d.reserved = nullptr;
    d.prepare = &prepare;
    d.finish = &finish;
    d.verify = kVerifies ? &verify : nullptr;  // NULL tells the host "not checked"
    return d;
  }
};

}  // namespace graft::plugin

#define GRAFT_PLUGIN(Class, name, version, ...)                                           \
  extern "C" GRAFT_PLUGIN_EXPORT const struct graft_plugin* graft_plugin_entry(void) {     \
    static const uint32_t kinds[] = {__VA_ARGS__};                                         \
    static const graft_plugin descriptor = ::graft::plugin::Glue<Class>::descriptor(        \
        name, version, kinds, sizeof kinds / sizeof kinds[0]);                             \
    return &descriptor;                                                                    \
  }
