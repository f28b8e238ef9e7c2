// Golden tests for the shipped NVIDIA env contract (policies/nvidia/*.lua):
// the real shipped policy, a hand-built 8-GPU inventory, hand-built requests,
// and assertions on the resulting Intent (inject flag, devices, capabilities,
// extras, refusal text, notes). One behaviour per TEST_CASE.
#include <algorithm>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "intent/intent.hpp"
#include "inventory/inventory.hpp"
#include "policy/policy.hpp"
#include "request/request.hpp"
#include "rules/evaluate.hpp"

using namespace graft;

namespace {

using Env = std::map<std::string, std::string>;

const char* const kPrefix = "/var/run/nvidia-container-devices";

// GPUs 0 and 1 share the UUID prefix "GPU-1a2b"; GPU 3 is "GPU-fef8089b-...".
const std::vector<std::string> kUuids = {
    "GPU-1a2b0000-1111-2222-3333-000000000000", "GPU-1a2b0001-1111-2222-3333-000000000001",
    "GPU-5c6d0002-1111-2222-3333-000000000002", "GPU-fef8089b-1111-2222-3333-000000000003",
    "GPU-77770004-1111-2222-3333-000000000004", "GPU-88880005-1111-2222-3333-000000000005",
    "GPU-99990006-1111-2222-3333-000000000006", "GPU-aaaa0007-1111-2222-3333-000000000007",
};
const std::vector<unsigned> kBuses = {0x19, 0x1a, 0x3b, 0x3c, 0x9a, 0x9b, 0xbc, 0xbd};

// 8 GPUs, minors 0..7, driver 560.35.03; GPU 7 has three MIG partitions.
Inventory make_inventory() {
  Inventory inv;
  inv.driver_version = "560.35.03";
  for (unsigned i = 0; i < 8; ++i) {
    Gpu gpu;
    gpu.index = i;
    gpu.minor = i;
    gpu.uuid = kUuids[i];
    gpu.bus_id = fmt::format("0000:{:02x}:00.0", kBuses[i]);
    gpu.model = "NVIDIA H100";
    inv.gpus.push_back(gpu);
  }
  for (unsigned p = 0; p < 3; ++p) {
    Partition part;
    part.index = p;
    part.gi = p + 1;
    part.ci = 0;
    inv.gpus[7].partitions.push_back(part);
  }
  return inv;
}

const Policy& shipped_policy() {
  static const Policy policy = [] {
    auto loaded = load_policy(GRAFT_SOURCE_DIR "/policies/nvidia/nvidia.toml", PolicySearch{});
    if (!loaded) FAIL("loading the shipped policy: " << loaded.error().message);
    return loaded.value();
  }();
  return policy;
}

const std::set<std::string> kAllChannels = {"env", "volume-mounts", "annotations"};

// Every channel trusted, privileged or not: isolates value parsing from trust.
Policy trusting_policy() {
  Policy p = shipped_policy();
  p.trusted_privileged = kAllChannels;
  p.trusted_unprivileged = kAllChannels;
  return p;
}

// The DESIGN example: unprivileged containers may not pick GPUs by env.
Policy cautious_policy() {
  Policy p = shipped_policy();
  p.trusted_privileged = kAllChannels;
  p.trusted_unprivileged = {"volume-mounts", "annotations"};
  return p;
}

Request make_request(const Env& env, bool privileged = false) {
  Request req;
  req.container_id = "test";
  req.env = env;
  req.privileged = privileged;
  return req;
}

Intent evaluate(const Request& req, const Policy& policy = trusting_policy(),
                const Inventory& inv = make_inventory()) {
  auto intent = evaluate_rules(req, inv, policy);
  if (!intent) FAIL("evaluate_rules: " << intent.error().message);
  return intent.value();
}

Intent evaluate_env(const Env& env, bool privileged = false) {
  return evaluate(make_request(env, privileged));
}

// Granted devices as "3" (whole GPU) or "7:1" (partition), in grant order.
std::vector<std::string> devices(const Intent& intent) {
  std::vector<std::string> out;
  for (const auto& d : intent.devices) {
    out.push_back(d.partition ? fmt::format("{}:{}", d.gpu, *d.partition)
                              : fmt::format("{}", d.gpu));
  }
  return out;
}

std::vector<std::string> sorted_names(const std::vector<NamedGrant>& grants) {
  std::vector<std::string> out;
  for (const auto& g : grants) out.push_back(g.name);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

std::vector<std::string> capabilities(const Intent& intent) {
  return sorted_names(intent.capabilities);
}

std::vector<std::string> extras(const Intent& intent) { return sorted_names(intent.extras); }

std::vector<std::string> supported_capabilities() {
  std::vector<std::string> out;
  for (const auto& name : shipped_policy().data.at("supported_capabilities")) {
    out.push_back(name.get<std::string>());
  }
  return sorted(out);
}

std::vector<std::string> default_capabilities() {
  std::vector<std::string> out;
  for (const auto& name : shipped_policy().default_capabilities) out.push_back(name.value);
  return sorted(out);
}

std::string refusal(const Intent& intent) { return intent.refusal ? intent.refusal->text : ""; }

bool has_note(const Intent& intent, const std::string& text) {
  return std::any_of(intent.request_notes.begin(), intent.request_notes.end(),
                     [&](const std::string& note) { return note.find(text) != std::string::npos; });
}

const std::vector<std::string> kAllGpus = {"0", "1", "2", "3", "4", "5", "6", "7"};

RequestMount device_mount(const std::string& what, const std::string& source = "/dev/null") {
  return RequestMount{std::string(kPrefix) + "/" + what, source, "bind", {"ro", "rbind"}};
}

}  // namespace

// ---------------------------------------------------------------------------
// NVIDIA_VISIBLE_DEVICES: not a GPU container

TEST_CASE("NVIDIA_VISIBLE_DEVICES unset is not a GPU container", "[env]") {
  auto intent = evaluate_env({});
  CHECK_FALSE(intent.inject);
  CHECK(intent.devices.empty());
  CHECK(intent.capabilities.empty());
  CHECK_FALSE(intent.refusal);
}

TEST_CASE("NVIDIA_VISIBLE_DEVICES empty is not a GPU container", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", ""}});
  CHECK_FALSE(intent.inject);
  CHECK(intent.devices.empty());
}

TEST_CASE("NVIDIA_VISIBLE_DEVICES=void is not a GPU container", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "void"}});
  CHECK_FALSE(intent.inject);
  CHECK(intent.devices.empty());
  CHECK(intent.inject_reason.text == "NVIDIA_VISIBLE_DEVICES=void");
}

TEST_CASE("void anywhere in the list wins over the other devices", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0, void,1"}});
  CHECK_FALSE(intent.inject);
  CHECK(intent.devices.empty());
}

// ---------------------------------------------------------------------------
// NVIDIA_VISIBLE_DEVICES: all and none

TEST_CASE("NVIDIA_VISIBLE_DEVICES=all grants every GPU", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "all"}});
  CHECK(intent.inject);
  CHECK(devices(intent) == kAllGpus);
  CHECK(intent.devices[3].reason.text == "NVIDIA_VISIBLE_DEVICES=all");
  CHECK(has_note(intent, "devices from env NVIDIA_VISIBLE_DEVICES=all (trusted)"));
}

TEST_CASE("all anywhere in a list grants every GPU", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0,all"}});
  CHECK(devices(intent) == kAllGpus);
}

TEST_CASE("the first of all and none in a list wins", "[env]") {
  CHECK(evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "none,all"}}).devices.empty());
  CHECK(devices(evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "2,all,none"}})) == kAllGpus);
}

TEST_CASE("fully qualified nvidia.com/gpu CDI names in NVIDIA_VISIBLE_DEVICES mean their id", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "nvidia.com/gpu=3,nvidia.com/gpu=7:2"}});
  REQUIRE(devices(intent) == std::vector<std::string>{"3", "7:2"});
  CHECK(intent.devices[0].reason.text == "NVIDIA_VISIBLE_DEVICES=nvidia.com/gpu=3");
  CHECK(devices(evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "nvidia.com/gpu=all"}})) == kAllGpus);
}

TEST_CASE("NVIDIA_VISIBLE_DEVICES=none injects the driver without GPUs", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "none"}});
  CHECK(intent.inject);
  CHECK(intent.devices.empty());
  CHECK(capabilities(intent) == default_capabilities());
  CHECK_FALSE(intent.refusal);
}

TEST_CASE("NVIDIA_VISIBLE_DEVICES=all on a host without GPUs injects the driver only", "[env]") {
  Inventory inv = make_inventory();
  inv.gpus.clear();
  auto intent = evaluate(make_request({{"NVIDIA_VISIBLE_DEVICES", "all"}}), trusting_policy(), inv);
  CHECK(intent.inject);
  CHECK(intent.devices.empty());
  CHECK(has_note(intent, "no GPUs found on this host"));
}

// ---------------------------------------------------------------------------
// NVIDIA_VISIBLE_DEVICES: indices, UUIDs, bus ids

TEST_CASE("a single index grants that GPU with the variable as its reason", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "1"}});
  CHECK(intent.inject);
  REQUIRE(devices(intent) == std::vector<std::string>{"1"});
  CHECK(intent.devices[0].reason.text == "NVIDIA_VISIBLE_DEVICES=1");
  CHECK(intent.devices[0].reason.origin.file.find("visible_devices.lua") != std::string::npos);
  CHECK(intent.devices[0].reason.origin.line > 0);
  CHECK(has_note(intent, "devices from env NVIDIA_VISIBLE_DEVICES=1 (trusted)"));
}

TEST_CASE("a comma list of indices is whitespace-trimmed", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", " 0 , 2,5 "}});
  CHECK(devices(intent) == std::vector<std::string>{"0", "2", "5"});
}

TEST_CASE("duplicate devices are granted once", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "1,1," + kUuids[1] + ",0000:1a:00.0"}});
  CHECK(devices(intent) == std::vector<std::string>{"1"});
  CHECK_FALSE(intent.refusal);
}

TEST_CASE("a full GPU UUID grants that GPU", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", kUuids[5]}});
  CHECK(devices(intent) == std::vector<std::string>{"5"});
}

TEST_CASE("a unique GPU UUID prefix grants that GPU", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "GPU-fef8089b"}});
  CHECK(devices(intent) == std::vector<std::string>{"3"});
}

TEST_CASE("an ambiguous GPU UUID prefix is refused", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "GPU-1a2b"}});
  CHECK(refusal(intent) ==
        "ambiguous device 'GPU-1a2b' in NVIDIA_VISIBLE_DEVICES (matches GPU 0, GPU 1)");
  CHECK(intent.devices.empty());
}

TEST_CASE("an unknown GPU UUID is refused", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "GPU-deadbeef-0000-0000-0000-000000000000"}});
  CHECK(refusal(intent) ==
        "unknown device 'GPU-deadbeef-0000-0000-0000-000000000000' in NVIDIA_VISIBLE_DEVICES");
}

TEST_CASE("a PCI bus id with a 4-digit domain grants that GPU", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0000:3b:00.0"}});
  CHECK(devices(intent) == std::vector<std::string>{"2"});
}

TEST_CASE("a PCI bus id with an 8-digit domain and upper-case hex grants that GPU", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "00000000:9A:00.0"}});
  CHECK(devices(intent) == std::vector<std::string>{"4"});
}

TEST_CASE("an unknown PCI bus id is refused", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0000:42:00.0"}});
  CHECK(refusal(intent) == "unknown device '0000:42:00.0' in NVIDIA_VISIBLE_DEVICES");
}

TEST_CASE("indices, UUIDs and bus ids mix in one list", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "6," + kUuids[0] + ",0000:bc:00.0"}});
  CHECK(devices(intent) == std::vector<std::string>{"6", "0"});
}

// ---------------------------------------------------------------------------
// NVIDIA_VISIBLE_DEVICES: MIG

TEST_CASE("a <gpu>:<mig> index grants that MIG partition", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "7:1"}});
  CHECK(intent.inject);
  REQUIRE(devices(intent) == std::vector<std::string>{"7:1"});
  CHECK(intent.devices[0].reason.text == "NVIDIA_VISIBLE_DEVICES=7:1");
}

TEST_CASE("a MIG index on a GPU without MIG partitions is refused", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "2:0"}});
  CHECK(refusal(intent) ==
        "unknown device '2:0' in NVIDIA_VISIBLE_DEVICES (GPU 2 has no MIG partitions)");
}

TEST_CASE("a MIG partition index out of range is refused", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "7:3"}});
  CHECK(refusal(intent) ==
        "unknown device '7:3' in NVIDIA_VISIBLE_DEVICES (GPU 7 has 3 MIG partitions)");
}

TEST_CASE("a MIG index on a GPU that does not exist is refused", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "9:0"}});
  CHECK(refusal(intent) == "unknown device '9:0' in NVIDIA_VISIBLE_DEVICES (the host has 8 GPUs)");
}

TEST_CASE("a MIG UUID is refused because it cannot be resolved without NVML", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "MIG-4f1a3d2c-1111-2222-3333-444455556666"}});
  CHECK(refusal(intent) ==
        "cannot resolve MIG device 'MIG-4f1a3d2c-1111-2222-3333-444455556666' in "
        "NVIDIA_VISIBLE_DEVICES: MIG UUIDs cannot be resolved without NVML; use <gpu>:<mig> "
        "indices (e.g. 0:1)");
  CHECK(intent.devices.empty());
}

TEST_CASE("the old MIG-GPU-<uuid>/<gi>/<ci> name grants that partition", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "MIG-" + kUuids[7] + "/2/0"}});
  CHECK(devices(intent) == std::vector<std::string>{"7:1"});
}

// ---------------------------------------------------------------------------
// NVIDIA_VISIBLE_DEVICES: refusals

TEST_CASE("an unknown token is refused with one clear message", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "gpu0"}});
  CHECK(refusal(intent) == "unknown device 'gpu0' in NVIDIA_VISIBLE_DEVICES");
  CHECK(intent.devices.empty());
}

TEST_CASE("an index out of range is refused", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "8"}});
  CHECK(refusal(intent) == "unknown device '8' in NVIDIA_VISIBLE_DEVICES (the host has 8 GPUs)");
}

TEST_CASE("a negative index is refused", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "-1"}});
  CHECK(refusal(intent) == "unknown device '-1' in NVIDIA_VISIBLE_DEVICES");
}

TEST_CASE("one bad token in a list refuses the whole request and grants nothing", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0,1,bogus"}});
  CHECK(refusal(intent) == "unknown device 'bogus' in NVIDIA_VISIBLE_DEVICES");
  CHECK(intent.devices.empty());
  CHECK(intent.capabilities.empty());
}

// ---------------------------------------------------------------------------
// NVIDIA_DRIVER_CAPABILITIES

TEST_CASE("capabilities unset get the policy defaults", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0"}});
  CHECK(capabilities(intent) == default_capabilities());
  CHECK(has_note(intent, "NVIDIA_DRIVER_CAPABILITIES unset"));
}

TEST_CASE("capabilities empty get the policy defaults", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_DRIVER_CAPABILITIES", ""}});
  CHECK(capabilities(intent) == default_capabilities());
  CHECK(has_note(intent, "NVIDIA_DRIVER_CAPABILITIES empty"));
}

TEST_CASE("each supported capability can be asked for alone", "[env]") {
  for (const auto& name : supported_capabilities()) {
    INFO("capability " << name);
    auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_DRIVER_CAPABILITIES", name}});
    CHECK(capabilities(intent) == std::vector<std::string>{name});
    REQUIRE(intent.capabilities.size() == 1);
    CHECK(intent.capabilities[0].reason.text == "NVIDIA_DRIVER_CAPABILITIES=" + name);
  }
}

TEST_CASE("capabilities combine and are whitespace-trimmed", "[env]") {
  auto intent = evaluate_env(
      {{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_DRIVER_CAPABILITIES", "compute, video,graphics"}});
  CHECK(capabilities(intent) == std::vector<std::string>{"compute", "graphics", "video"});
}

TEST_CASE("capabilities=all grants every supported capability", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_DRIVER_CAPABILITIES", "all"}});
  CHECK(capabilities(intent) == supported_capabilities());
}

TEST_CASE("an unknown capability is refused naming it", "[env]") {
  auto intent =
      evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_DRIVER_CAPABILITIES", "compute,teleport"}});
  CHECK(refusal(intent).starts_with("unsupported capability 'teleport' in NVIDIA_DRIVER_CAPABILITIES"));
}

TEST_CASE("capabilities are not applied to a container that is not injected", "[env]") {
  auto intent =
      evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "void"}, {"NVIDIA_DRIVER_CAPABILITIES", "teleport"}});
  CHECK_FALSE(intent.inject);
  CHECK(intent.capabilities.empty());
  CHECK_FALSE(intent.refusal);
}

// ---------------------------------------------------------------------------
// NVIDIA_REQUIRE_* (driver 560.35.03; the shipped policy maps branch 560 to CUDA 12.6)

namespace {
Intent with_requirement(const std::string& expr, Env extra = {}) {
  extra["NVIDIA_VISIBLE_DEVICES"] = "0";
  extra["NVIDIA_REQUIRE_CUDA"] = expr;
  return evaluate_env(extra);
}
const std::string kCudaHint =
    ", please update your driver to a newer version, or use an earlier cuda container";
}  // namespace

TEST_CASE("the shipped policy knows the CUDA version of driver branch 560", "[env]") {
  CHECK(shipped_policy().data.at("cuda_by_driver_branch").at("560") == "12.6");
}

TEST_CASE("a met cuda requirement passes", "[env]") {
  auto intent = with_requirement("cuda>=12.6");
  CHECK_FALSE(intent.refusal);
  CHECK(devices(intent) == std::vector<std::string>{"0"});
  CHECK(has_note(intent, "driver 560.35.03, cuda 12.6"));
}

TEST_CASE("an unmet cuda requirement is refused with the update-your-driver hint", "[env]") {
  auto intent = with_requirement("cuda>=12.8");
  CHECK(refusal(intent) == "unsatisfied condition: cuda>=12.8" + kCudaHint);
}

TEST_CASE("a met driver requirement passes", "[env]") {
  CHECK_FALSE(with_requirement("driver>=550").refusal);
}

TEST_CASE("an unmet driver requirement is refused without the cuda hint", "[env]") {
  CHECK(refusal(with_requirement("driver>=570")) == "unsatisfied condition: driver>=570");
}

TEST_CASE("versions compare numerically with missing components as zero", "[env]") {
  CHECK_FALSE(with_requirement("driver=560.35.3").refusal);
  CHECK_FALSE(with_requirement("cuda=12.6.0").refusal);
  CHECK_FALSE(with_requirement("driver>560.9").refusal);
  CHECK_FALSE(with_requirement("driver<560.100").refusal);
  CHECK(with_requirement("driver!=560.35.03.0").refusal);
  CHECK(with_requirement("cuda<=12.5").refusal);
}

TEST_CASE("arch and brand terms pass because they are unknown without NVML", "[env]") {
  auto intent = with_requirement("arch>=9.0,brand=tesla,brand!=geforce,arch<1.0");
  CHECK_FALSE(intent.refusal);
}

TEST_CASE("one met OR alternative is enough", "[env]") {
  CHECK_FALSE(with_requirement("cuda>=13.0 driver>=550").refusal);
}

TEST_CASE("one unmet AND term fails its alternative", "[env]") {
  CHECK(refusal(with_requirement("driver>=550,driver<555")) ==
        "unsatisfied condition: driver>=550,driver<555");
}

TEST_CASE("an unmet OR expression reports its first alternative", "[env]") {
  // The shape CUDA images ship: newer CUDA, or an older driver branch on Tesla.
  auto intent = with_requirement(
      "cuda>=12.8 brand=tesla,driver>=470,driver<471 brand=tesla,driver>=535,driver<536");
  CHECK(refusal(intent) == "unsatisfied condition: cuda>=12.8" + kCudaHint);
}

TEST_CASE("requirement names are case-insensitive", "[env]") {
  CHECK_FALSE(with_requirement("CUDA>=12.0,Driver<600,BRAND=Tesla").refusal);
  CHECK(refusal(with_requirement("Driver>=600")) == "unsatisfied condition: Driver>=600");
}

TEST_CASE("== is an invalid expression", "[env]") {
  CHECK(refusal(with_requirement("cuda==12.6")) ==
        "invalid expression 'cuda==12.6' in NVIDIA_REQUIRE_CUDA");
}

TEST_CASE("an unknown property is an invalid expression", "[env]") {
  CHECK(refusal(with_requirement("cuda>=12.0,memory>=80")) ==
        "invalid expression 'memory>=80' in NVIDIA_REQUIRE_CUDA");
}

TEST_CASE("a non-numeric version is an invalid expression", "[env]") {
  CHECK(refusal(with_requirement("driver>=abc")) ==
        "invalid expression 'driver>=abc' in NVIDIA_REQUIRE_CUDA");
}

TEST_CASE("brand with an ordering operator is an invalid expression", "[env]") {
  CHECK(refusal(with_requirement("brand>tesla")) ==
        "invalid expression 'brand>tesla' in NVIDIA_REQUIRE_CUDA");
}

TEST_CASE("an expression longer than 4096 characters is invalid", "[env]") {
  std::string expr = "driver>=1";
  while (expr.size() <= 4096) expr += ",driver>=1";
  CHECK(refusal(with_requirement(expr)) ==
        "invalid expression in NVIDIA_REQUIRE_CUDA: longer than 4096 characters");
}

TEST_CASE("every NVIDIA_REQUIRE_* variable must hold", "[env]") {
  auto intent = with_requirement("cuda>=12.0", {{"NVIDIA_REQUIRE_DRIVER", "driver>=999"}});
  CHECK(refusal(intent) == "unsatisfied condition: driver>=999");
}

TEST_CASE("NVIDIA_REQUIRE_JETPACK* variables are not requirements", "[env]") {
  auto intent = with_requirement("cuda>=12.0", {{"NVIDIA_REQUIRE_JETPACK", "csv-mounts=all"},
                                                {"NVIDIA_REQUIRE_JETPACK_HOST_MOUNTS", "x"}});
  CHECK_FALSE(intent.refusal);
}

TEST_CASE("more than 32 requirements are refused", "[env]") {
  Env env{{"NVIDIA_VISIBLE_DEVICES", "0"}};
  for (int i = 0; i < 33; ++i) env[fmt::format("NVIDIA_REQUIRE_X{:02}", i)] = "driver>=1";
  CHECK(refusal(evaluate_env(env)) ==
        "too many requirements: 33 NVIDIA_REQUIRE_* constraints (at most 32)");
}

TEST_CASE("NVIDIA_DISABLE_REQUIRE with a Go true value disables requirements", "[env]") {
  for (const char* value : {"1", "t", "T", "TRUE", "true", "True"}) {
    INFO("NVIDIA_DISABLE_REQUIRE=" << value);
    auto intent = with_requirement("cuda>=99.0", {{"NVIDIA_DISABLE_REQUIRE", value}});
    CHECK_FALSE(intent.refusal);
    CHECK(has_note(intent, std::string("requirements disabled by NVIDIA_DISABLE_REQUIRE=") + value));
  }
}

TEST_CASE("NVIDIA_DISABLE_REQUIRE with a false or invalid value keeps requirements", "[env]") {
  for (const char* value : {"0", "f", "F", "FALSE", "false", "False", "yes", "on", ""}) {
    INFO("NVIDIA_DISABLE_REQUIRE=" << value);
    auto intent = with_requirement("cuda>=99.0", {{"NVIDIA_DISABLE_REQUIRE", value}});
    CHECK(refusal(intent) == "unsatisfied condition: cuda>=99.0" + kCudaHint);
  }
}

TEST_CASE("data.disable_require in the policy disables requirements for every container", "[env]") {
  Policy policy = trusting_policy();
  policy.data["disable_require"] = true;
  auto intent = evaluate(
      make_request({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_REQUIRE_CUDA", "cuda>=99.0"}}), policy);
  CHECK_FALSE(intent.refusal);
  CHECK(has_note(intent, "requirements disabled by policy"));
}

TEST_CASE("requirements are not checked for a container that is not injected", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "void"}, {"NVIDIA_REQUIRE_CUDA", "cuda>=99"}});
  CHECK_FALSE(intent.refusal);
  CHECK_FALSE(intent.inject);
}

TEST_CASE("requirements are checked for NVIDIA_VISIBLE_DEVICES=none", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "none"}, {"NVIDIA_REQUIRE_CUDA", "cuda>=99"}});
  CHECK(refusal(intent) == "unsatisfied condition: cuda>=99" + kCudaHint);
}

TEST_CASE("a driver branch without a known CUDA version lets cuda terms pass", "[env]") {
  Inventory inv = make_inventory();
  inv.driver_version = "999.1.2";
  auto intent = evaluate(
      make_request({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_REQUIRE_CUDA", "cuda>=99.0,driver>=999"}}),
      trusting_policy(), inv);
  CHECK_FALSE(intent.refusal);
  CHECK(has_note(intent, "driver 999.1.2, cuda unknown"));
}

// ---------------------------------------------------------------------------
// Legacy CUDA images (CUDA_VERSION set, NVIDIA_REQUIRE_CUDA unset)

TEST_CASE("a legacy CUDA image without NVIDIA_VISIBLE_DEVICES gets every GPU", "[env]") {
  auto intent = evaluate_env({{"CUDA_VERSION", "11.8.0"}});
  CHECK(intent.inject);
  CHECK(devices(intent) == kAllGpus);
  CHECK(intent.devices[0].reason.text.find("legacy CUDA image") != std::string::npos);
}

TEST_CASE("a legacy CUDA image without NVIDIA_DRIVER_CAPABILITIES gets every capability", "[env]") {
  auto intent = evaluate_env({{"CUDA_VERSION", "11.8.0"}, {"NVIDIA_VISIBLE_DEVICES", "0"}});
  CHECK(capabilities(intent) == supported_capabilities());
}

TEST_CASE("a legacy CUDA image with NVIDIA_DRIVER_CAPABILITIES set gets what it asks", "[env]") {
  auto intent = evaluate_env({{"CUDA_VERSION", "11.8.0"}, {"NVIDIA_DRIVER_CAPABILITIES", "utility"}});
  CHECK(capabilities(intent) == std::vector<std::string>{"utility"});
}

TEST_CASE("a legacy CUDA image requires the CUDA version it was built for", "[env]") {
  auto intent = evaluate_env({{"CUDA_VERSION", "12.8.1"}});
  CHECK(refusal(intent) == "unsatisfied condition: cuda>=12.8" + kCudaHint);
}

TEST_CASE("a legacy CUDA image built for an older CUDA starts", "[env]") {
  auto intent = evaluate_env({{"CUDA_VERSION", "12.6.3"}});
  CHECK_FALSE(intent.refusal);
  CHECK(intent.inject);
}

TEST_CASE("an image with NVIDIA_REQUIRE_CUDA set is not legacy", "[env]") {
  auto intent = evaluate_env({{"CUDA_VERSION", "12.2.0"}, {"NVIDIA_REQUIRE_CUDA", "cuda>=12.2"}});
  CHECK_FALSE(intent.inject);
  CHECK(intent.devices.empty());
}

TEST_CASE("a legacy CUDA image with NVIDIA_VISIBLE_DEVICES=void is not a GPU container", "[env]") {
  auto intent = evaluate_env({{"CUDA_VERSION", "11.8.0"}, {"NVIDIA_VISIBLE_DEVICES", "void"}});
  CHECK_FALSE(intent.inject);
}

// ---------------------------------------------------------------------------
// MIG management

TEST_CASE("NVIDIA_MIG_CONFIG_DEVICES=all grants mig-config to a privileged container", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "7"}, {"NVIDIA_MIG_CONFIG_DEVICES", "all"}},
                             /*privileged=*/true);
  CHECK_FALSE(intent.refusal);
  CHECK(extras(intent) == std::vector<std::string>{"mig-config"});
  CHECK(intent.extras[0].reason.text == "NVIDIA_MIG_CONFIG_DEVICES=all");
}

TEST_CASE("NVIDIA_MIG_MONITOR_DEVICES=all grants mig-monitor to a privileged container", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "all"}, {"NVIDIA_MIG_MONITOR_DEVICES", "all"}},
                             /*privileged=*/true);
  CHECK(extras(intent) == std::vector<std::string>{"mig-monitor"});
}

TEST_CASE("MIG config and monitor together grant both extras", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "7"},
                              {"NVIDIA_MIG_CONFIG_DEVICES", "all"},
                              {"NVIDIA_MIG_MONITOR_DEVICES", "all"}},
                             /*privileged=*/true);
  CHECK(extras(intent) == std::vector<std::string>{"mig-config", "mig-monitor"});
}

TEST_CASE("MIG config in an unprivileged container is refused", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "7"}, {"NVIDIA_MIG_CONFIG_DEVICES", "all"}},
                             /*privileged=*/false);
  CHECK(refusal(intent) ==
        "cannot set NVIDIA_MIG_CONFIG_DEVICES in an unprivileged container (MIG management needs "
        "CAP_SYS_ADMIN)");
  CHECK(intent.extras.empty());
}

TEST_CASE("MIG monitor in an unprivileged container is refused", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "7"}, {"NVIDIA_MIG_MONITOR_DEVICES", "all"}},
                             /*privileged=*/false);
  CHECK(refusal(intent) ==
        "cannot set NVIDIA_MIG_MONITOR_DEVICES in an unprivileged container (MIG management needs "
        "CAP_SYS_ADMIN)");
}

TEST_CASE("MIG management with a value other than all is refused", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "7"}, {"NVIDIA_MIG_MONITOR_DEVICES", "7"}},
                             /*privileged=*/true);
  CHECK(refusal(intent) == "invalid NVIDIA_MIG_MONITOR_DEVICES '7': only 'all' is supported");
}

TEST_CASE("MIG management cannot be combined with selecting a MIG partition", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "7:0"}, {"NVIDIA_MIG_CONFIG_DEVICES", "all"}},
                             /*privileged=*/true);
  CHECK(refusal(intent) ==
        "NVIDIA_MIG_CONFIG_DEVICES=all cannot be combined with selecting MIG devices (7:0)");
}

TEST_CASE("MIG management variables are ignored when the container is not injected", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "void"}, {"NVIDIA_MIG_CONFIG_DEVICES", "all"}},
                             /*privileged=*/false);
  CHECK_FALSE(intent.refusal);
  CHECK(intent.extras.empty());
}

// ---------------------------------------------------------------------------
// Request channels and trust

TEST_CASE("env devices are ignored in an unprivileged container when env is not trusted", "[env]") {
  auto intent = evaluate(make_request({{"NVIDIA_VISIBLE_DEVICES", "all"}}, false), cautious_policy());
  CHECK_FALSE(intent.inject);
  CHECK(intent.devices.empty());
  CHECK_FALSE(intent.refusal);
  CHECK(has_note(intent, "ignored devices requested by environment in an unprivileged container"));
}

TEST_CASE("env devices are honoured in a privileged container under the same policy", "[env]") {
  auto intent = evaluate(make_request({{"NVIDIA_VISIBLE_DEVICES", "2"}}, true), cautious_policy());
  CHECK(devices(intent) == std::vector<std::string>{"2"});
  CHECK(has_note(intent, "devices from env NVIDIA_VISIBLE_DEVICES=2 (trusted)"));
}

TEST_CASE("an untrusted legacy CUDA image does not get every GPU", "[env]") {
  auto intent = evaluate(make_request({{"CUDA_VERSION", "11.8.0"}}, false), cautious_policy());
  CHECK_FALSE(intent.inject);
  CHECK(has_note(intent, "ignored devices requested by environment"));
}

TEST_CASE("volume mounts select devices when trusted", "[env]") {
  Request req = make_request({}, false);
  req.mounts = {device_mount("0"), device_mount(kUuids[4])};
  auto intent = evaluate(req, cautious_policy());
  CHECK(intent.inject);
  REQUIRE(devices(intent) == std::vector<std::string>{"0", "4"});
  CHECK(intent.devices[0].reason.text == std::string("volume mount ") + kPrefix + "/0");
  CHECK(has_note(intent, "devices from volume mounts (trusted)"));
}

TEST_CASE("a volume mount for all grants every GPU", "[env]") {
  Request req = make_request({}, false);
  req.mounts = {device_mount("all")};
  CHECK(devices(evaluate(req, cautious_policy())) == kAllGpus);
}

TEST_CASE("CDI-style volume mount names select devices", "[env]") {
  Request req = make_request({}, false);
  req.mounts = {device_mount("cdi/nvidia.com/gpu/1"), device_mount("cdi/nvidia.com/gpu=7:2")};
  CHECK(devices(evaluate(req, cautious_policy())) == std::vector<std::string>{"1", "7:2"});
}

TEST_CASE("volume mounts win over env", "[env]") {
  Request req = make_request({{"NVIDIA_VISIBLE_DEVICES", "all"}}, true);
  req.mounts = {device_mount("3")};
  CHECK(devices(evaluate(req, cautious_policy())) == std::vector<std::string>{"3"});
}

TEST_CASE("mounts under the prefix that are not from /dev/null are not requests", "[env]") {
  Request req = make_request({}, false);
  req.mounts = {device_mount("3", "/tmp/x")};
  auto intent = evaluate(req, cautious_policy());
  CHECK_FALSE(intent.inject);
}

TEST_CASE("untrusted volume mounts are ignored with a note and env decides", "[env]") {
  Policy policy = cautious_policy();
  policy.trusted_unprivileged = {"env"};
  Request req = make_request({{"NVIDIA_VISIBLE_DEVICES", "5"}}, false);
  req.mounts = {device_mount("all")};
  auto intent = evaluate(req, policy);
  CHECK(devices(intent) == std::vector<std::string>{"5"});
  CHECK(has_note(intent, "ignored devices requested by volume mounts in an unprivileged container"));
}

TEST_CASE("an unknown device in a volume mount is refused naming the mount", "[env]") {
  Request req = make_request({}, false);
  req.mounts = {device_mount("12")};
  CHECK(refusal(evaluate(req, cautious_policy())) ==
        std::string("unknown device '12' in volume mount ") + kPrefix + "/12 (the host has 8 GPUs)");
}

TEST_CASE("annotations win over env", "[env]") {
  Request req = make_request({{"NVIDIA_VISIBLE_DEVICES", "0"}}, true);
  req.annotations = {{"cdi.k8s.io/gpus", "nvidia.com/gpu=all"}};
  auto intent = evaluate(req, cautious_policy());
  CHECK(devices(intent) == kAllGpus);
  CHECK(intent.devices[0].reason.text == "annotation cdi.k8s.io/gpus=nvidia.com/gpu=all");
  CHECK(has_note(intent, "devices from annotations cdi.k8s.io/* (trusted)"));
}

TEST_CASE("annotations list several CDI names across keys", "[env]") {
  Request req = make_request({}, false);
  req.annotations = {{"cdi.k8s.io/b", "nvidia.com/gpu=6"},
                     {"cdi.k8s.io/a", "vendor.example/nic=eth0, nvidia.com/gpu=" + kUuids[2]}};
  CHECK(devices(evaluate(req, cautious_policy())) == std::vector<std::string>{"2", "6"});
}

TEST_CASE("annotations naming only other vendors' devices are not GPU requests", "[env]") {
  Request req = make_request({{"NVIDIA_VISIBLE_DEVICES", "1"}}, true);
  req.annotations = {{"cdi.k8s.io/nic", "vendor.example/nic=eth0"}};
  CHECK(devices(evaluate(req, cautious_policy())) == std::vector<std::string>{"1"});
}

TEST_CASE("untrusted annotations are ignored with a note and env decides", "[env]") {
  Policy policy = cautious_policy();
  policy.trusted_privileged = {"env"};
  Request req = make_request({{"NVIDIA_VISIBLE_DEVICES", "1"}}, true);
  req.annotations = {{"cdi.k8s.io/gpus", "nvidia.com/gpu=all"}};
  auto intent = evaluate(req, policy);
  CHECK(devices(intent) == std::vector<std::string>{"1"});
  CHECK(has_note(intent, "ignored devices requested by annotations cdi.k8s.io/* (not a trusted "
                         "request channel for privileged containers)"));
}

TEST_CASE("an unknown device in an annotation is refused naming the annotation", "[env]") {
  Request req = make_request({}, false);
  req.annotations = {{"cdi.k8s.io/gpus", "nvidia.com/gpu=GPU-nope"}};
  CHECK(refusal(evaluate(req, cautious_policy())) ==
        "unknown device 'GPU-nope' in annotation cdi.k8s.io/gpus");
}
