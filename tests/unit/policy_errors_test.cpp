// SPDX-License-Identifier: Apache-2.0
// load_policy on broken policies: every error is one line that names the
// file, line, column and key path, and suggests the closest known key or name.
// Policy files are written into a fresh temp dir by each test.
#include <string>

#include <catch2/catch.hpp>

#include "policy/policy.hpp"
#include "policy_support.hpp"

using namespace graft;
using namespace graft::policy_test;

TEST_CASE("a TOML syntax error names file, line and column", "[policy]") {
  CHECK(error_in_file("[host]\ndriver_root = \n") ==
        "F:2:15: Error while parsing key-value pair: expected value, saw '\\n'");
}

TEST_CASE("two rule modules of one name are an error naming both", "[policy]") {
  PolicyFiles files;
  files.write("vendor.toml", "rule_modules = [\"a/text.lua\"]\n");
  auto site = files.write("site.toml", "include = [\"vendor.toml\"]\nrule_modules = [\"b/text.lua\"]\n");
  CHECK(load_error(site) == site + ":2:17: rule_modules[0]: module 'text' is already declared at " +
                                files.path("vendor.toml") + ":1:17 (" + files.path("a/text.lua") + ")");
}

TEST_CASE("a rule module must be a .lua file with a plain name", "[policy]") {
  CHECK(error_in_file("rule_modules = [\"text.txt\"]\n") ==
        "F:1:17: rule_modules[0]: 'text.txt': a rule module is a .lua file");
  CHECK(error_in_file("rule_modules = [\"my-text.lua\"]\n") ==
        "F:1:17: rule_modules[0]: 'my-text': a module name (the file name without .lua) takes "
        "letters, digits and _ only");
}

TEST_CASE("an unreadable policy file is an error naming it", "[policy]") {
  CHECK(load_error("/nonexistent/graft.toml") ==
        "/nonexistent/graft.toml: cannot read: No such file or directory");
}

TEST_CASE("an unknown top-level key suggests the closest known key", "[policy]") {
  CHECK(error_in_file("inclde = [\"nvidia\"]\n") ==
        "F:1:1: inclde: unknown key; did you mean 'include'?");
  CHECK(error_in_file("[capabilities.compute]\nalways = true\n") ==
        "F:1:2: capabilities: unknown key; did you mean 'capability'?");
}

TEST_CASE("an unknown nested key names its full key path", "[policy]") {
  CHECK(error_in_file("# site\n\n[capability.compute]\nlibaries = []\n") ==
        "F:4:1: capability.compute.libaries: unknown key; did you mean 'libraries'?");
  CHECK(error_in_file("[procfs]\nrewrite = [{ file = \"p\", form = \"a\", to = \"b\" }]\n") ==
        "F:2:26: procfs.rewrite[0].form: unknown key; did you mean 'from'?");
  CHECK(error_in_file("[discovery]\ngpu_fields = { uid = \"GPU UUID\" }\n") ==
        "F:2:16: discovery.gpu_fields.uid: unknown key; did you mean 'uuid'?");
}

TEST_CASE("an unknown key with nothing close has no suggestion", "[policy]") {
  CHECK(error_in_file("[host]\nzzzzzzzzzz = \"/\"\n") == "F:2:1: host.zzzzzzzzzz: unknown key");
}

TEST_CASE("a value of the wrong type names the expected and actual types", "[policy]") {
  CHECK(error_in_file("# site\n[host]\ndriver_root = 5\n") ==
        "F:3:15: host.driver_root: expected a string, got integer");
  CHECK(error_in_file("[capability.compute]\nbinaries = [\"a\", true]\n") ==
        "F:2:18: capability.compute.binaries[1]: expected a string, got boolean");
  CHECK(error_in_file("host = \"/\"\n") == "F:1:8: host: expected a table, got string");
}

TEST_CASE("a missing shipped include names the including position and where it looked", "[policy]") {
  PolicyFiles files;
  auto site = files.write("site.toml", "# site\ninclude = [\"nvida\"]\n");
  CHECK(load_error(site, {{files.path("a"), files.path("b")}}) ==
        site + ":2:12: include[0]: no shipped policy named 'nvida' (looked for " +
            files.path("a/nvida/nvida.toml") + ", " + files.path("b/nvida/nvida.toml") + ")");
}

TEST_CASE("a missing include path names the including position and the resolved path", "[policy]") {
  PolicyFiles files;
  auto site = files.write("site.toml", "include = [\"x.toml\", \"local/gpu.toml\"]\n");
  files.write("x.toml", "");
  CHECK(load_error(site) == site + ":1:22: include[1]: included file " +
                                files.path("local/gpu.toml") + " does not exist");
}

TEST_CASE("an include loop names the chain of files", "[policy]") {
  PolicyFiles files;
  auto a = files.write("a.toml", "include = [\"b.toml\"]\n");
  auto b = files.write("b.toml", "\ninclude = [\"a.toml\"]\n");
  CHECK(load_error(a) ==
        b + ":2:12: include[0]: include loop: " + a + " includes " + b + " includes " + a);
}

TEST_CASE("an error in an included file names that file", "[policy]") {
  PolicyFiles files;
  auto vendor = files.write("vendor.toml", "[device.gpu]\npath = \"/dev/g{minor}\"\nper = \"gpus\"\n");
  auto site = files.write("site.toml", "include = [\"vendor.toml\"]\n");
  CHECK(load_error(site) == vendor +
                                ":3:7: device.gpu.per: expected \"fixed\", \"gpu\", \"partition\", \"minor\" or \"gpu-sysfs\", "
                                "got \"gpus\"; did you mean 'gpu'?");
}

TEST_CASE("an unknown request channel is an error with a suggestion", "[policy]") {
  CHECK(error_in_file("[requests]\nunprivileged = [\"env\", \"volume-mount\"]\n") ==
        "F:2:24: requests.unprivileged[1]: unknown request channel 'volume-mount'; "
        "did you mean 'volume-mounts'?");
}

TEST_CASE("defaults naming a missing capability set are an error", "[policy]") {
  CHECK(error_in_file("[defaults]\ncapabilities = [\"compute\"]\n[capability.compte]\n") ==
        "F:2:17: defaults.capabilities[0]: no capability set named 'compute'; "
        "did you mean 'compte'?");
}

TEST_CASE("[cdi] gpu_capabilities naming a missing capability set is an error", "[policy][cdi]") {
  CHECK(error_in_file("[cdi]\ngpu_capabilities = [\"compte\"]\n[capability.compute]\n") ==
        "F:2:21: cdi.gpu_capabilities[0]: no capability set named 'compte'; did you mean 'compute'?");
}

TEST_CASE("[cdi] gpu_capabilities is \"default\" or an array of set names", "[policy][cdi]") {
  CHECK(error_in_file("[cdi]\ngpu_capabilities = \"all\"\n") ==
        "F:2:20: cdi.gpu_capabilities: 'all' is not \"default\"; name the sets in an array ([] for none)");
  CHECK(error_in_file("[cdi]\ngpu_capabilities = true\n") ==
        "F:2:20: cdi.gpu_capabilities: expected \"default\" or an array of capability set names, got boolean");
}

TEST_CASE("a pull of a missing capability set is an error", "[policy]") {
  CHECK(error_in_file("[capability.video]\npulls = [\"compute.libraries\"]\n") ==
        "F:2:10: capability.video.pulls[0]: no capability set named 'compute'");
}

TEST_CASE("a pull of a field that is not a list is an error", "[policy]") {
  CHECK(error_in_file("[capability.a]\n[capability.b]\npulls = [\"a.libaries\"]\n") ==
        "F:3:10: capability.b.pulls[0]: 'libaries' is not a list field of a capability set; "
        "did you mean 'libraries'?");
}

TEST_CASE("a pull cycle is an error naming the cycle", "[policy]") {
  CHECK(error_in_file("[capability.a]\npulls = [\"b.ipc\"]\n[capability.b]\npulls = [\"a.libraries\"]\n") ==
        "F:4:10: capability.b.pulls[0]: pull cycle: a -> b -> a");
}

TEST_CASE("a capability naming a missing device class is an error", "[policy]") {
  CHECK(error_in_file("[capability.a]\ndevices = [\"ctl\"]\n[device.ct]\npath = \"/dev/ct\"\n") ==
        "F:2:12: capability.a.devices[0]: no device class named 'ctl'; did you mean 'ct'?");
}

TEST_CASE("a per-GPU device class without {minor} is an error", "[policy]") {
  CHECK(error_in_file("[device.gpu]\npath = \"/dev/gpu\"\nper = \"gpu\"\n") ==
        "F:1:1: device.gpu.path: needs {minor}: one node is made per GPU, partition or granted minor");
}

TEST_CASE("a per-GPU sysfs device class needs a sys_path and {name} in its path", "[policy]") {
  CHECK(error_in_file("[device.dri]\npath = \"/dev/dri/{name}\"\nper = \"gpu-sysfs\"\n") ==
        "F:1:1: device.dri: per = \"gpu-sysfs\" needs 'sys_path'");
  CHECK(error_in_file("[device.dri]\npath = \"/dev/dri/card\"\nper = \"gpu-sysfs\"\nsys_path = \"/sys/{bus_id}/drm/card*\"\n") ==
        "F:1:1: device.dri.path: needs {name}: the sysfs entry's name");
}

TEST_CASE("a capability set listing a per-minor device class is an error", "[policy]") {
  CHECK(error_in_file("[capability.a]\ndevices = [\"chan\"]\n[device.chan]\npath = \"/dev/ch{minor}\"\n"
                      "per = \"minor\"\n") ==
        "F:2:12: capability.a.devices[0]: device class 'chan' is per GPU, partition or minor: a capability set "
        "lists fixed and per = \"gpu-sysfs\" classes only");
}

TEST_CASE("a sys_path or dev_link on a device class that is not per-GPU sysfs is an error", "[policy]") {
  CHECK(error_in_file("[device.ctl]\npath = \"/dev/ctl\"\nsys_path = \"/sys/x\"\n") ==
        "F:1:1: device.ctl.sys_path: only a per = \"gpu-sysfs\" class has a sys_path");
  CHECK(error_in_file("[device.ctl]\npath = \"/dev/ctl\"\ndev_link = \"/dev/x\"\n") ==
        "F:1:1: device.ctl.dev_link: only a per = \"gpu-sysfs\" class has a dev_link");
}

TEST_CASE("bad limits values are errors naming what is accepted", "[policy]") {
  CHECK(error_in_file("[limits]\nrule_memory = \"32XB\"\n") ==
        "F:2:15: limits.rule_memory: expected a size such as \"32MiB\" (B, KiB, MiB, GiB) "
        "or a byte count > 0, got '32XB'");
  CHECK(error_in_file("[limits]\nrule_instructions = 0\n") ==
        "F:2:21: limits.rule_instructions: expected an integer > 0, got 0");
  CHECK(error_in_file("[limits]\nrule_memory = 1.5\n") ==
        "F:2:15: limits.rule_memory: expected a size such as \"32MiB\" (B, KiB, MiB, GiB) "
        "or a byte count > 0, got float");
}

TEST_CASE("a deadline that is not a positive number of milliseconds is an error", "[policy]") {
  CHECK(error_in_file("[limits]\ndeadline_ms = 0\n") ==
        "F:2:15: limits.deadline_ms: expected a number of milliseconds > 0, got 0");
  CHECK(error_in_file("[limits]\ndeadline_ms = -5\n") ==
        "F:2:15: limits.deadline_ms: expected a number of milliseconds > 0, got -5");
  CHECK_THAT(error_in_file("[limits]\ndeadline_ms = \"10s\"\n"),
             Catch::StartsWith("F:2:15: limits.deadline_ms: expected an integer"));
  CHECK_THAT(error_in_file("[limits]\ndeadline_ms = 2.5\n"),
             Catch::StartsWith("F:2:15: limits.deadline_ms: expected an integer"));
}

TEST_CASE("a misspelt deadline key suggests the right one", "[policy]") {
  CHECK(error_in_file("[limits]\ndeadline_sec = 300\n") ==
        "F:2:1: limits.deadline_sec: unknown key; did you mean 'deadline_ms'?");
}

TEST_CASE("a version pattern without a capture group is an error", "[policy]") {
  CHECK(error_in_file("[discovery]\nversion_pattern = 'Module\\s+[0-9.]+'\n") ==
        "F:2:19: discovery.version_pattern: needs a capture group for the version");
}

TEST_CASE("a procfs rewrite missing a key is an error", "[policy]") {
  CHECK(error_in_file("[procfs]\nrewrite = [{ file = \"params\", from = \"a\" }]\n") ==
        "F:2:12: procfs.rewrite[0]: missing key 'to'");
}

TEST_CASE("an unknown [cdi] key suggests kind, and a kind that breaks the CDI name rules is refused where it is written",
          "[policy][cdi]") {
  CHECK(error_in_file("[cdi]\nknd = \"example.com/gpu\"\n") == "F:2:1: cdi.knd: unknown key; did you mean 'kind'?");
  std::string bad = error_in_file("[cdi]\nkind = \"example.com\"\n");
  CHECK_THAT(bad, Catch::StartsWith("F:2:8: cdi.kind: "));
}

TEST_CASE("[cdi] kind is read as written", "[policy][cdi]") {
  PolicyFiles files;
  auto path = files.write("graft.toml", "[cdi]\nkind = \"example.com/gpu\"\n");
  auto policy = load_policy(path, {});
  REQUIRE(policy.ok());
  CHECK(policy->cdi.kind == "example.com/gpu");
}

TEST_CASE("an unknown library search names the two there are and the closest", "[policy]") {
  CHECK(error_in_file("[discovery]\nlibrary_search = \"dirs_only\"\n") ==
        "F:2:18: discovery.library_search: unknown library search 'dirs_only' (cache-then-dirs or "
        "dirs-only); did you mean 'dirs-only'?");
}

TEST_CASE("dirs-only without library_dirs is an error: it would find no library", "[policy]") {
  CHECK(error_in_file("[discovery]\nlibrary_search = \"dirs-only\"\n") ==
        "F:2:18: discovery.library_search: \"dirs-only\" needs discovery.library_dirs: without one no "
        "driver library is found");
}

TEST_CASE("a library dir must be absolute: it is read under driver_root", "[policy]") {
  CHECK(error_in_file("[discovery]\nlibrary_dirs = [\"/usr/local/nvidia/lib64\", \"lib64\"]\n") ==
        "F:2:16: discovery.library_dirs: expected absolute directories (read under driver_root), got 'lib64'");
}
