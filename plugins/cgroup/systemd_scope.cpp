// SPDX-License-Identifier: Apache-2.0
// Telling systemd what graft allowed (systemd_scope.hpp).
#include "systemd_scope.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <functional>
#include <utility>

#include <fmt/format.h>

#include "unit_object_path.hpp"

namespace graft::cgroup {
namespace {

constexpr const char* kPrivateSocket = "unix:path=/run/systemd/private";
constexpr std::uint64_t kCallTimeoutUsec = 5'000'000;

// Appends the (sv) pair ("DeviceAllow", a(ss) entries) of SetUnitProperties.
int append_device_allow(const SdBusLibrary& lib, sd_bus_message* message, const std::vector<DeviceRule>& rules) {
  int r = lib.open_container(message, 'r', "sv");
  if (r >= 0) r = lib.append(message, "s", "DeviceAllow");
  if (r >= 0) r = lib.open_container(message, 'v', "a(ss)");
  if (r >= 0) r = lib.open_container(message, 'a', "(ss)");
  for (const auto& rule : rules) {
    if (r < 0) break;
    const std::string path = device_allow_path(rule.type, rule.major, rule.minor);
    r = lib.append(message, "(ss)", path.c_str(), rule.access.c_str());
  }
  for (int i = 0; i < 3 && r >= 0; ++i) r = lib.close_container(message);
  return r;
}

Result<sd_bus_message*> set_unit_properties(const SdBusLibrary& lib, sd_bus* bus, const std::string& unit,
                                           const std::vector<DeviceRule>& rules) {
  sd_bus_message* message = nullptr;
  int r = lib.new_method_call(bus, &message, "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
                              "org.freedesktop.systemd1.Manager", "SetUnitProperties");
  if (r >= 0) r = lib.append(message, "sb", unit.c_str(), 1);  // runtime: gone with the unit
  if (r >= 0) r = lib.open_container(message, 'a', "(sv)");
  if (r >= 0) r = append_device_allow(lib, message, rules);
  if (r >= 0) r = lib.close_container(message);
  if (r < 0) {
    lib.message_unref(message);
    return make_sys_error(-r, "building SetUnitProperties for {}", unit);
  }
  return message;
}

// The interface holding a unit's resource-control properties, by its type.
Result<std::string> resource_interface(const std::string& unit) {
  if (unit.ends_with(".scope")) return std::string("org.freedesktop.systemd1.Scope");
  if (unit.ends_with(".service")) return std::string("org.freedesktop.systemd1.Service");
  return make_error("{} is neither a scope nor a service", unit);
}

// One property of `unit`, its value (of D-Bus type `type`) handed to
// `read_value`, which answers as sd_bus_message_read does.
Status read_property(const SdBusLibrary& lib, sd_bus* bus, const std::string& unit, const char* member,
                     const char* type, const std::function<int(sd_bus_message*)>& read_value) {
  auto path = unit_object_path(lib, unit);
  if (!path.ok()) return path.error();
  auto interface = resource_interface(unit);
  if (!interface.ok()) return interface.error();
  sd_bus_error error = SD_BUS_ERROR_NULL;
  sd_bus_message* reply = nullptr;
  int r = lib.get_property(bus, "org.freedesktop.systemd1", path->c_str(), interface->c_str(), member, &error,
                           &reply, type);
  if (r >= 0) r = read_value(reply);
  std::string why = r >= 0 ? "" : error.message != nullptr ? error.message : std::strerror(-r);
  lib.error_free(&error);
  lib.message_unref(reply);
  if (r < 0) return make_error("reading {} of {}: {}", member, unit, why);
  return ok_status();
}

// Counts the (path, access) entries of a DeviceAllow= value.
int count_device_allow(const SdBusLibrary& lib, sd_bus_message* reply, std::size_t& entries) {
  int r = lib.enter_container(reply, 'a', "(ss)");
  while (r >= 0) {
    const char* path = nullptr;
    const char* access = nullptr;
    r = lib.read(reply, "(ss)", &path, &access);
    if (r <= 0) break;
    ++entries;
  }
  return r;
}

}  // namespace

SystemdManager::SystemdManager(SystemdManager&& other) noexcept
    : lib_(other.lib_), bus_(std::exchange(other.bus_, nullptr)) {}

SystemdManager& SystemdManager::operator=(SystemdManager&& other) noexcept {
  std::swap(lib_, other.lib_);
  std::swap(bus_, other.bus_);
  return *this;
}

SystemdManager::~SystemdManager() {
  if (bus_ != nullptr) lib_->close(bus_);
}

Result<SystemdManager> SystemdManager::connect() {
  auto lib = sd_bus_library();
  if (!lib.ok()) return lib.error();
  const SdBusLibrary& sd = **lib;
  sd_bus* bus = nullptr;
  int r = sd.bus_new(&bus);
  if (r >= 0 && ::geteuid() == 0) r = sd.set_address(bus, kPrivateSocket);
  if (r >= 0 && ::geteuid() == 0) r = sd.start(bus);
  if (r >= 0 && ::geteuid() == 0) return SystemdManager(&sd, bus);
  if (bus != nullptr) sd.close(bus);
  bus = nullptr;
  r = sd.open_system(&bus);
  if (r < 0) return make_sys_error(-r, "connecting to systemd (/run/systemd/private, then the system bus)");
  return SystemdManager(&sd, bus);
}

Result<bool> SystemdManager::holds(const std::string& unit, int pid) const {
  sd_bus_error error = SD_BUS_ERROR_NULL;
  sd_bus_message* message = nullptr;
  sd_bus_message* reply = nullptr;
  int r = lib_->new_method_call(bus_, &message, "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
                                "org.freedesktop.systemd1.Manager", "GetUnitByPID");
  if (r >= 0) r = lib_->append(message, "u", static_cast<std::uint32_t>(pid));
  if (r >= 0) r = lib_->call(bus_, message, kCallTimeoutUsec, &error, &reply);
  const char* object = nullptr;
  if (r >= 0) r = lib_->read(reply, "o", &object);
  std::string found = r >= 0 && object != nullptr ? object : "";
  bool no_unit = r < 0 && lib_->error_has_name(&error, "org.freedesktop.systemd1.NoUnitForPID");
  std::string why = error.message != nullptr ? error.message : std::strerror(-r);
  lib_->error_free(&error);
  lib_->message_unref(message);
  lib_->message_unref(reply);
  if (no_unit) return false;
  if (r < 0) return make_error("asking systemd which unit holds pid {}: {}", pid, why);
  auto path = unit_object_path(*lib_, unit);
  if (!path.ok()) return path.error();
  return found == *path;
}

Result<UnitDevicePolicy> SystemdManager::device_policy(const std::string& unit) const {
  UnitDevicePolicy unit_policy;
  auto policy = read_property(*lib_, bus_, unit, "DevicePolicy", "s", [&](sd_bus_message* reply) {
    const char* value = nullptr;
    int r = lib_->read(reply, "s", &value);
    if (r >= 0 && value != nullptr) unit_policy.policy = value;
    return r;
  });
  if (!policy.ok()) return policy.error();
  auto allow = read_property(*lib_, bus_, unit, "DeviceAllow", "a(ss)", [&](sd_bus_message* reply) {
    return count_device_allow(*lib_, reply, unit_policy.allow_entries);
  });
  if (!allow.ok()) return allow.error();
  return unit_policy;
}

Status SystemdManager::allow_devices(const std::string& unit, const std::vector<DeviceRule>& rules) const {
  auto message = set_unit_properties(*lib_, bus_, unit, rules);
  if (!message.ok()) return message.error();
  sd_bus_error error = SD_BUS_ERROR_NULL;
  sd_bus_message* reply = nullptr;
  int r = lib_->call(bus_, *message, kCallTimeoutUsec, &error, &reply);
  std::string why = r >= 0 ? "" : error.message != nullptr ? error.message : std::strerror(-r);
  lib_->error_free(&error);
  lib_->message_unref(*message);
  lib_->message_unref(reply);
  if (r < 0) return make_error("systemd refused DeviceAllow= for {}: {}", unit, why);
  return ok_status();
}

}  // namespace graft::cgroup
