// SPDX-License-Identifier: Apache-2.0
// Whether graft-runtime sees the real runtime's systemd cgroup driver
// turned on (frontends/graft-runtime/systemd_cgroup_option.hpp): in
// declarative mode it then links /dev/char/MAJ:MIN to each device it put in
// the spec, or the next daemon-reload takes them away. Each form is read as
// the runtime's own parser reads it: runc's Go flag package (a boolean
// flag with one or two dashes, its value after '=' by strconv.ParseBool),
// crun's argp (--systemd-cgroup, --cgroup-manager MANAGER); the last
// setting wins. Each form was checked against Debian 12's runc 1.1.5 and
// crun 1.8.1: a create whose cgroupsPath the systemd driver refuses
// (runc: "expected cgroupsPath to be of format slice:prefix:name"; crun,
// without a bus: "cannot open sd-bus") fails so exactly when the driver is
// on, and runc refuses --systemd-cgroup=yes ("invalid boolean value").
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "runtime_grammar.hpp"
#include "systemd_cgroup_option.hpp"

using graft::runtime::runtime_grammar;
using graft::runtime::RuntimeGrammar;
using graft::runtime::uses_systemd_cgroup;
using Args = std::vector<std::string>;

namespace systemd_cgroup_option_test {

// The grammars by the runtime's file name (runtime_grammar.hpp).
const RuntimeGrammar& as_runc() { return runtime_grammar("/no/such/dir/runc"); }
const RuntimeGrammar& as_crun() { return runtime_grammar("/no/such/dir/crun"); }
const RuntimeGrammar& as_other_runtime() { return runtime_grammar("/no/such/dir/youki"); }

// A create with `global` before it, as containerd passes one.
Args create_after(Args global) {
  global.insert(global.end(), {"create", "--bundle", "/run/c/bundle", "c1"});
  return global;
}

}  // namespace systemd_cgroup_option_test

using namespace systemd_cgroup_option_test;

TEST_CASE("runc's systemd cgroup driver is on with --systemd-cgroup or -systemd-cgroup before the command",
          "[systemd][runtime]") {
  CHECK(uses_systemd_cgroup(create_after({"--root", "/r", "--systemd-cgroup"}), as_runc()));
  CHECK(uses_systemd_cgroup(create_after({"-systemd-cgroup", "--log", "/l"}), as_runc()));
}

TEST_CASE("runc's systemd cgroup driver is off without the flag", "[systemd][runtime]") {
  CHECK_FALSE(uses_systemd_cgroup(create_after({"--root", "/r", "--log-format", "json"}), as_runc()));
  CHECK_FALSE(uses_systemd_cgroup(create_after({}), as_runc()));
}

TEST_CASE("runc reads --systemd-cgroup=1, t, T, TRUE, true and True as on, as Go's strconv.ParseBool does",
          "[systemd][runtime]") {
  for (const char* value : {"1", "t", "T", "TRUE", "true", "True"}) {
    INFO(value);
    CHECK(uses_systemd_cgroup(create_after({std::string("--systemd-cgroup=") + value}), as_runc()));
    CHECK(uses_systemd_cgroup(create_after({std::string("-systemd-cgroup=") + value}), as_runc()));
  }
}

TEST_CASE("runc reads --systemd-cgroup=0, f, F, FALSE, false and False as off", "[systemd][runtime]") {
  for (const char* value : {"0", "f", "F", "FALSE", "false", "False"}) {
    INFO(value);
    CHECK_FALSE(uses_systemd_cgroup(create_after({std::string("--systemd-cgroup=") + value}), as_runc()));
  }
}

TEST_CASE("a --systemd-cgroup value runc refuses (yes) turns nothing on: runc creates nothing",
          "[systemd][runtime]") {
  CHECK_FALSE(uses_systemd_cgroup(create_after({"--systemd-cgroup=yes"}), as_runc()));
}

TEST_CASE("the last --systemd-cgroup among runc's global options wins", "[systemd][runtime]") {
  CHECK_FALSE(uses_systemd_cgroup(create_after({"--systemd-cgroup", "--systemd-cgroup=false"}), as_runc()));
  CHECK(uses_systemd_cgroup(create_after({"--systemd-cgroup=0", "-systemd-cgroup"}), as_runc()));
}

TEST_CASE("runc reads no --systemd-cgroup that is another global option's value, or comes after the command "
          "or after --",
          "[systemd][runtime]") {
  CHECK_FALSE(uses_systemd_cgroup(create_after({"--root", "--systemd-cgroup"}), as_runc()));
  CHECK_FALSE(uses_systemd_cgroup(Args{"exec", "c1", "--systemd-cgroup"}, as_runc()));
  CHECK_FALSE(uses_systemd_cgroup(Args{"--", "--systemd-cgroup", "create", "c1"}, as_runc()));
}

TEST_CASE("crun's systemd cgroup driver is on with --systemd-cgroup or --cgroup-manager systemd, with or without '='",
          "[systemd][runtime]") {
  CHECK(uses_systemd_cgroup(create_after({"--systemd-cgroup"}), as_crun()));
  CHECK(uses_systemd_cgroup(create_after({"--cgroup-manager", "systemd"}), as_crun()));
  CHECK(uses_systemd_cgroup(create_after({"--root", "/r", "--cgroup-manager=systemd"}), as_crun()));
}

TEST_CASE("crun's --cgroup-manager cgroupfs or disabled after --systemd-cgroup turns the driver off",
          "[systemd][runtime]") {
  CHECK_FALSE(uses_systemd_cgroup(create_after({"--systemd-cgroup", "--cgroup-manager", "cgroupfs"}), as_crun()));
  CHECK_FALSE(uses_systemd_cgroup(create_after({"--systemd-cgroup", "--cgroup-manager=disabled"}), as_crun()));
  CHECK(uses_systemd_cgroup(create_after({"--cgroup-manager=cgroupfs", "--systemd-cgroup"}), as_crun()));
}

TEST_CASE("a runtime graft does not know has its systemd cgroup driver on with --systemd-cgroup",
          "[systemd][runtime]") {
  CHECK(uses_systemd_cgroup(create_after({"--systemd-cgroup"}), as_other_runtime()));
  CHECK_FALSE(uses_systemd_cgroup(create_after({"--root", "/r"}), as_other_runtime()));
}
