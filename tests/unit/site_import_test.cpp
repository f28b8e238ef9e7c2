// SPDX-License-Identifier: Apache-2.0
// `graft policy import`: a site moving from NVIDIA's toolkit keeps every
// setting of its config.toml, in each shape the toolkit shipped (fixtures in
// tests/import/nvidia), and every generated policy passes `graft policy check`.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "foreign_file.hpp"
#include "policy_support.hpp"
#include "run_command.hpp"
#include "skip.hpp"
#include "site_import/import_site_policy.hpp"
#include "site_import/site_policy_text.hpp"

// The helpers and cases share a namespace: the unit tests build as unity
// batches, and nothing here may reach the files compiled after this one.
namespace site_import_test {

using namespace graft;
using namespace graft::site_import;

const std::string kPolicies = GRAFT_SOURCE_DIR "/policies";
const std::string kShapes = GRAFT_SOURCE_DIR "/tests/import/nvidia/";

PolicySearch vendor_search(std::vector<std::string> dirs = {}) {
  dirs.push_back(kPolicies);
  return PolicySearch{dirs};
}

ImportedPolicy imported(const std::string& shape) {
  auto result = import_site_policy("nvidia", kShapes + shape, vendor_search());
  if (!result) FAIL(result.error().message);
  return std::move(*result);
}

// The graft setting as TOML spells it, or "" when the import did not set it.
std::string setting(const ImportedPolicy& policy, const std::string& key) {
  const auto* node = policy.result.settings.get(key);
  return node ? one_line_toml(*node) : "";
}

const KeyImport& key(const ImportedPolicy& policy, const std::string& name) {
  for (const auto& one : policy.result.keys)
    if (one.key == name) return one;
  FAIL("the import lists no key " << name);
  throw;
}


TEST_CASE("the Debian package's config.toml needs no setting, and names module loading as not expressible",
          "[import]") {
  auto policy = imported("debian-1.13.toml");
  CHECK(policy.result.settings.empty());
  CHECK(key(policy, "nvidia-container-cli.ldconfig").outcome == Outcome::unchanged);
  CHECK(key(policy, "nvidia-container-runtime.mode").outcome == Outcome::unchanged);
  CHECK(key(policy, "nvidia-container-cli.load-kmods").outcome == Outcome::inexpressible);
  CHECK(policy.result.count(Outcome::unknown) == 0);
  CHECK(policy.summary == "7 keys kept, 1 not expressible, 0 unknown to the importer");
}

TEST_CASE("the RPM package's config.toml keeps its debug logs as notes, not settings", "[import]") {
  auto policy = imported("centos-1.14.toml");
  CHECK(policy.result.settings.empty());
  CHECK(key(policy, "nvidia-container-cli.debug").outcome == Outcome::unchanged);
  CHECK(key(policy, "nvidia-container-runtime.debug").outcome == Outcome::unchanged);
  CHECK_THAT(policy.text, Catch::Contains("#   nvidia-container-cli.debug = \"/var/log/nvidia-container-toolkit.log\""));
}

TEST_CASE("the 1.17 default config.toml is known key by key", "[import]") {
  auto policy = imported("default-1.17.toml");
  CHECK(policy.result.count(Outcome::unknown) == 0);
  CHECK(policy.result.settings.empty());
  CHECK(key(policy, "nvidia-container-runtime.modes.cdi.spec-dirs").outcome == Outcome::unchanged);
  CHECK(policy.summary == "14 keys kept, 1 not expressible, 0 unknown to the importer");
}

TEST_CASE("the 1.18 default config.toml keeps CUDA forward compatibility on, as graft's shipped policy has it",
          "[import]") {
  auto policy = imported("default-1.18.toml");
  CHECK(policy.result.count(Outcome::unknown) == 0);
  CHECK(policy.result.settings.empty());
  CHECK(key(policy, "nvidia-container-runtime.modes.legacy.cuda-compat-mode").outcome == Outcome::unchanged);
  CHECK(key(policy, "nvidia-container-runtime.runtimes").outcome == Outcome::unchanged);
}

TEST_CASE("a config.toml that disables CUDA compat and ignores IMEX requests turns both off in the site policy",
          "[import]") {
  auto policy = imported("kubernetes-hardened.toml");
  CHECK(setting(policy, "forward_compat.enabled") == "false");
  CHECK(setting(policy, "data.imex_channels.ignore_requests") == "true");
}

TEST_CASE("a hardened Kubernetes config.toml trusts env requests only from privileged containers",
          "[import]") {
  auto policy = imported("kubernetes-hardened.toml");
  CHECK(setting(policy, "requests.unprivileged") == R"(["annotations", "volume-mounts"])");
  CHECK(setting(policy, "requests.privileged") == R"(["env", "annotations", "volume-mounts"])");
  CHECK(setting(policy, "data.supported_capabilities") == R"(["compute", "utility", "video"])");
  CHECK(setting(policy, "runtime.mode") == "\"declarative\"");
  CHECK(policy.result.count(Outcome::inexpressible) == 0);
  CHECK(policy.result.count(Outcome::unknown) == 0);
}

TEST_CASE("a driver container's config.toml keeps its driver root, ldconfig and runtime", "[import]") {
  auto policy = imported("driver-container.toml");
  CHECK(setting(policy, "host.driver_root") == "\"/run/nvidia/driver\"");
  CHECK(setting(policy, "plugins.config.ldcache.method") == "\"ldconfig\"");
  CHECK(setting(policy, "plugins.config.ldcache.ldconfig") == "\"/run/nvidia/driver/sbin/ldconfig.real\"");
  CHECK(setting(policy, "runtime.path") == "\"/usr/local/sbin/runc\"");
  CHECK(setting(policy, "data.disable_require") == "true");
  CHECK(setting(policy, "cdi.kind") == "\"management.nvidia.com/gpu\"");
  CHECK(setting(policy, "discovery.ldcache") == "");  // the default path needs no setting
}

TEST_CASE("a config.toml in legacy mode keeps CDI annotations untrusted, as legacy mode ignored them",
          "[import]") {
  auto policy = imported("driver-container.toml");
  CHECK(setting(policy, "requests.privileged") == R"(["env"])");
  CHECK(setting(policy, "requests.unprivileged") == R"(["env"])");
  CHECK(setting(imported("debian-1.13.toml"), "requests.unprivileged") == "");  // auto: unchanged
}

TEST_CASE("a Jetson config.toml keeps its capability list and names CSV mode as not expressible",
          "[import]") {
  auto policy = imported("jetson-csv.toml");
  CHECK(setting(policy, "data.supported_capabilities") ==
        R"(["compute", "compat32", "graphics", "utility", "video", "display"])");
  CHECK(key(policy, "nvidia-container-runtime.mode").outcome == Outcome::inexpressible);
  CHECK(key(policy, "nvidia-container-runtime.modes.csv.mount-spec-path").outcome == Outcome::unchanged);
}

TEST_CASE("a rootless config.toml lists no-cgroups, user and the keys the importer does not know",
          "[import]") {
  auto policy = imported("rootless-suse.toml");
  CHECK(key(policy, "nvidia-container-cli.no-cgroups").outcome == Outcome::inexpressible);
  CHECK(key(policy, "nvidia-container-cli.user").outcome == Outcome::inexpressible);
  CHECK(key(policy, "swarm-resource").outcome == Outcome::inexpressible);
  CHECK(key(policy, "accept-nvidia-visible-devices-envvar-when-unprivilegd").outcome == Outcome::unknown);
  CHECK(key(policy, "nvidia-container-runtime.experimental.discover-mode").outcome == Outcome::unknown);
  CHECK_THAT(policy.text, Catch::Contains("# UNKNOWN to the importer"));
  CHECK_THAT(policy.text, Catch::Contains("#   nvidia-container-runtime.experimental.discover-mode = \"legacy\""));
  CHECK_THAT(policy.summary, Catch::EndsWith("2 unknown to the importer"));
}

TEST_CASE("every generated policy passes the real loader and the sample check", "[import]") {
  for (const auto& entry : std::filesystem::directory_iterator(kShapes)) {
    if (entry.path().extension() != ".toml") continue;
    INFO(entry.path());
    auto policy = imported(entry.path().filename().string());
    auto checked = check_site_policy_text(policy.text, vendor_search());
    CHECK(checked.ok());
    if (!checked) INFO(checked.error().message);
  }
}

TEST_CASE("each setting in the generated file names the config.toml key it came from", "[import]") {
  auto policy = imported("kubernetes-hardened.toml");
  CHECK_THAT(policy.text, Catch::Contains("include = [\"nvidia\"]"));
  CHECK_THAT(policy.text, Catch::Contains(
      "[requests]\n# from accept-nvidia-visible-devices-as-volume-mounts = true\n"));
  CHECK_THAT(policy.text, Catch::Contains("# from accept-nvidia-visible-devices-envvar-when-unprivileged = false\n"));
}

TEST_CASE("a config.toml value cannot end its comment in the generated file", "[import]") {
  graft::policy_test::PolicyFiles files;
  std::string config = files.write("config.toml", "[nvidia-container-cli]\ndebug = \"x\\n[host]\\ndriver_root = '/evil'\"\n");
  auto result = import_site_policy("nvidia", config, vendor_search());
  REQUIRE(result.ok());
  CHECK(result->result.settings.empty());
  CHECK_THAT(result->text, !Catch::Contains("\ndriver_root"));
}

// Issue 42: a key's name went into the file as it was, so a quoted key
// holding newlines wrote live settings ([runtime] path, which graft-runtime
// runs as root), and the import exited 0.
TEST_CASE("a config.toml key holding newlines cannot start a line of the generated policy", "[import]") {
  graft::policy_test::PolicyFiles files;
  std::string config = files.write("config.toml", R"("x\n[runtime]\npath = \"/tmp/evil-runc\"\n#" = 1
[nvidia-container-cli]
"y\n[host]\ndriver_root = '/evil'\n#" = 2
)");
  auto result = import_site_policy("nvidia", config, vendor_search());
  REQUIRE(result.ok());
  INFO(result->text);
  auto parsed = toml::parse(result->text);
  CHECK_FALSE(parsed.contains("runtime"));
  CHECK_FALSE(parsed.contains("host"));
  CHECK_THAT(result->text, !Catch::Contains("\n[runtime]") && !Catch::Contains("\npath =") &&
                               !Catch::Contains("\n[host]") && !Catch::Contains("\ndriver_root"));
  CHECK(key(*result, R"("x\u000A[runtime]\u000Apath = \"/tmp/evil-runc\"\u000A#")").outcome == Outcome::unknown);
  CHECK(key(*result, R"(nvidia-container-cli."y\u000A[host]\u000Adriver_root = '/evil'\u000A#")").outcome ==
        Outcome::unknown);
}

TEST_CASE("a config.toml key nested deeper than 16 tables is refused, naming its file and line", "[import]") {
  graft::policy_test::PolicyFiles files;
  std::string deep = "a";
  for (int part = 1; part < 20; ++part) deep += ".a";
  std::string config = files.write("config.toml", "disable-require = false\n" + deep + " = 1\n");
  auto result = import_site_policy("nvidia", config, vendor_search());
  REQUIRE_FALSE(result.ok());
  CHECK_THAT(result.error().message, Catch::StartsWith(config + ":2: a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a: keys nested "
                                                                "more than 16 tables deep"));
}

// Issue 42: toml++ 3.3 recurses once per part of a dotted key; a key of
// 60,000 parts killed the import with SIGSEGV (exit 139).
TEST_CASE("graft policy import-nvidia refuses a key 60,000 tables deep with one line, not a crash",
          "[import][cli]") {
  graft::policy_test::PolicyFiles files;
  std::string deep = "a";
  for (int part = 1; part < 60000; ++part) deep += ".a";
  std::string config = files.write("config.toml", deep + " = 1\n");
  std::string output = files.path("graft.toml");
  auto run = testing::run_graft({"--policy-dir", kPolicies, "policy", "import-nvidia", config, "--output", output});
  CHECK(run.exit_code == 1);
  CHECK(run.err == "graft: " + config + ":1: a key of more than 64 parts\n");
  CHECK_FALSE(std::filesystem::exists(output));
}

TEST_CASE("a value no case of the importer matches is listed as not expressible", "[import]") {
  graft::policy_test::PolicyFiles files;
  std::string config = files.write("config.toml", "[nvidia-container-runtime]\nmode = \"quantum\"\n");
  auto result = import_site_policy("nvidia", config, vendor_search());
  REQUIRE(result.ok());
  CHECK(result->result.keys.at(0).outcome == Outcome::inexpressible);
  CHECK(result->result.keys.at(0).reason == "no case of the importer matches this value");
}

TEST_CASE("a config.toml that is not TOML is an error naming its line", "[import]") {
  graft::policy_test::PolicyFiles files;
  std::string config = files.write("config.toml", "disable-require = false\nroot = [\n");
  auto result = import_site_policy("nvidia", config, vendor_search());
  REQUIRE_FALSE(result.ok());
  CHECK_THAT(result.error().message, Catch::StartsWith(config + ":"));
}

TEST_CASE("an importer is data any policy directory can ship, under its own name", "[import]") {
  graft::policy_test::PolicyFiles files;
  files.write("acme/import/acme.toml",
              "description = \"Acme runtime config\"\ninclude = \"nvidia\"\n"
              "[key.\"driver.root\"]\nset = { \"host.driver_root\" = \"{value}\" }\nwhy = \"Acme's root\"\n");
  std::string config = files.write("acme.toml", "[driver]\nroot = \"/opt/acme\"\n");
  std::string dir = std::filesystem::path(config).parent_path().string();
  auto result = import_site_policy("acme", config, vendor_search({dir}));
  REQUIRE(result.ok());
  CHECK_THAT(result->text, Catch::Contains("[host]\n# from driver.root = \"/opt/acme\"\n#   Acme's root\ndriver_root = \"/opt/acme\"\n"));
}

TEST_CASE("an importer with a misspelt field is refused with its file, line and key", "[import]") {
  graft::policy_test::PolicyFiles files;
  std::string path = files.write("acme/import/acme.toml",
                                 "include = \"nvidia\"\n[key.\"a\"]\nnon = \"typo\"\n");
  auto result = read_importer("acme", path);
  REQUIRE_FALSE(result.ok());
  CHECK_THAT(result.error().message, Catch::Contains(path + ":3:"));
  CHECK_THAT(result.error().message, Catch::Contains("key.\"a\".non: unknown field"));
}

TEST_CASE("an importer whose two keys set one graft key differently is an error", "[import]") {
  graft::policy_test::PolicyFiles files;
  files.write("acme/import/acme.toml",
              "include = \"nvidia\"\n[key.a]\nset = { \"host.driver_root\" = \"/a\" }\n"
              "[key.b]\nset = { \"host.driver_root\" = \"/b\" }\n");
  std::string config = files.write("c.toml", "a = 1\nb = 2\n");
  auto result = import_site_policy("acme", config, vendor_search({std::filesystem::path(config).parent_path().string()}));
  REQUIRE_FALSE(result.ok());
  CHECK_THAT(result.error().message, Catch::Contains("b sets host.driver_root to \"/b\", but a already set it to \"/a\""));
}

TEST_CASE("without a file the importer's default file is read", "[import]") {
  graft::policy_test::PolicyFiles files;
  std::string config = files.write("etc/acme.toml", "root = \"/opt/acme\"\n");
  files.write("acme/import/acme.toml", "include = \"nvidia\"\nfile = \"" + config +
                                           "\"\n[key.root]\nset = { \"host.driver_root\" = \"{value}\" }\n");
  auto result = import_site_policy("acme", "", vendor_search({files.path("")}));
  REQUIRE(result.ok());
  CHECK(result->source == config);
  CHECK(setting(*result, "host.driver_root") == "\"/opt/acme\"");
}

TEST_CASE("an import whose policy fails the check writes nothing", "[import][cli]") {
  graft::policy_test::PolicyFiles files;
  files.write("acme/import/acme.toml",
              "include = \"nvidia\"\n[key.root]\nset = { \"host.no_such_root\" = \"{value}\" }\n");
  std::string config = files.write("acme.toml", "root = \"/opt/acme\"\n");
  std::string output = files.path("graft.toml");
  auto run = testing::run_graft({"--policy-dir", files.path(""), "--policy-dir", kPolicies, "policy",
                                 "import-acme", config, "--output", output});
  CHECK(run.exit_code == 1);
  CHECK_THAT(run.err, Catch::Contains("does not pass the check"));
  CHECK_THAT(run.err, Catch::Contains("<generated policy>:"));
  CHECK_THAT(run.err, Catch::Contains("no_such_root"));
  CHECK_FALSE(std::filesystem::exists(output));
}

TEST_CASE("import-NAME is an alias only as a policy command", "[import][cli]") {
  auto run = testing::run_graft({"--policy-dir", kPolicies, "import-nvidia", kShapes + "debian-1.13.toml"});
  CHECK(run.exit_code == 2);
  CHECK_THAT(run.err, Catch::Contains("unknown command 'import-nvidia'"));
}

TEST_CASE("docs/migrating.md names every config.toml key the nvidia importer maps", "[import]") {
  auto importer = read_importer("nvidia", kPolicies + "/nvidia/import/nvidia.toml");
  REQUIRE(importer.ok());
  std::ifstream doc(GRAFT_SOURCE_DIR "/docs/migrating.md");
  std::string text((std::istreambuf_iterator<char>(doc)), std::istreambuf_iterator<char>());
  for (const auto& [name, entry] : importer->keys) {
    std::string key(name.str());
    std::string last = key.substr(key.rfind('.') == std::string::npos ? 0 : key.rfind('.') + 1);
    INFO(key);
    CHECK_THAT(text, Catch::Contains(last + "`"));  // rows name keys as `[section] key` or `… key`
  }
}

TEST_CASE("graft policy import-nvidia writes a policy graft policy check accepts, with a summary line",
          "[import][cli]") {
  graft::policy_test::PolicyFiles files;
  std::string output = files.write("graft.toml", "");
  auto run = testing::run_graft({"--policy-dir", kPolicies, "policy", "import-nvidia",
                                 kShapes + "kubernetes-hardened.toml", "--output", output});
  CHECK(run.exit_code == 0);
  CHECK(run.out.empty());
  CHECK(run.err == "graft: imported " + kShapes + "kubernetes-hardened.toml with importer 'nvidia': "
                   "21 keys kept, 0 not expressible, 0 unknown to the importer\n");
  auto check = testing::run_graft({"--policy", output, "--policy-dir", kPolicies, "policy", "check", "--offline"});
  CHECK(check.exit_code == 0);
  CHECK_THAT(check.out, Catch::Contains("ok: "));
}

// Issue 42: the policy took the owner and mode of what lay at --output.
TEST_CASE("graft policy import-nvidia --output over a world-writable file another user planted leaves root's "
          "0644 policy",
          "[import][cli]") {
  if (::geteuid() != 0) GRAFT_SKIP("needs root to plant a file owned by another user");
  graft::policy_test::PolicyFiles files;
  std::string output = files.path("graft.toml");
  test::plant_foreign_file(output, "# planted\n");
  auto run = testing::run_graft({"--policy-dir", kPolicies, "policy", "import-nvidia",
                                 kShapes + "kubernetes-hardened.toml", "--output", output});
  INFO(run.err);
  CHECK(run.exit_code == 0);
  test::check_root_0644(output);
}

TEST_CASE("graft policy import-nvidia --output refuses a symlink there with one line, and its target stays",
          "[import][cli]") {
  graft::policy_test::PolicyFiles files;
  std::string target = files.path("elsewhere.toml"), output = files.path("graft.toml");
  test::plant_link(output, target, "# elsewhere\n");
  auto run = testing::run_graft({"--policy-dir", kPolicies, "policy", "import-nvidia",
                                 kShapes + "kubernetes-hardened.toml", "--output", output});
  CHECK(run.exit_code == 1);
  CHECK(run.err == "graft: " + test::symlink_refusal(output) + "\n");
  test::check_link_untouched(output, target, "# elsewhere\n");
}

TEST_CASE("graft policy import names the importers it looked for when none is found", "[import][cli]") {
  auto run = testing::run_graft({"--policy-dir", kPolicies, "policy", "import", "acme", "/dev/null"});
  CHECK(run.exit_code == 1);
  CHECK_THAT(run.err, Catch::Contains("no importer 'acme' (looked for " + kPolicies + "/*/import/acme.toml"));
}

}  // namespace site_import_test
