// NVIDIA env contract, requirements: NVIDIA_REQUIRE_* expressions checked
// against the driver and its CUDA version, NVIDIA_DISABLE_REQUIRE, and legacy
// CUDA images whose CUDA_VERSION stands in for NVIDIA_REQUIRE_CUDA.
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "env_support.hpp"

using namespace graft;
using namespace graft::env_test;

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

// ---------------------------------------------------------------------------
// arch and brand: the GPU's procfs model in the policy's model tables (every
// GPU of make_inventory() is an "NVIDIA H100": arch 9.0, brand nvidia)

namespace {
Intent with_requirement_on(const std::vector<std::string>& models, const std::string& devices,
                           const std::string& expr) {
  Inventory inv = make_inventory();
  for (size_t i = 0; i < models.size(); ++i) inv.gpus[i].model = models[i];
  return evaluate(make_request({{"NVIDIA_VISIBLE_DEVICES", devices}, {"NVIDIA_REQUIRE_ARCH", expr}}),
                  trusting_policy(), inv);
}
}  // namespace

TEST_CASE("an arch term compares the compute capability the model table gives the GPU", "[env]") {
  CHECK_FALSE(with_requirement("arch>=9.0").refusal);
  CHECK_FALSE(with_requirement("arch=9").refusal);
  CHECK(refusal(with_requirement("arch>=10.0")) == "unsatisfied condition: arch>=10.0");
  CHECK(refusal(with_requirement("arch<9.0")) == "unsatisfied condition: arch<9.0");
}

TEST_CASE("a brand term compares the brand the model table gives the GPU, in any case", "[env]") {
  CHECK_FALSE(with_requirement("brand=nvidia").refusal);
  CHECK_FALSE(with_requirement("BRAND=NVIDIA,brand!=geforce").refusal);
  CHECK(refusal(with_requirement("brand=tesla")) == "unsatisfied condition: brand=tesla");
}

TEST_CASE("the plan notes each granted GPU's model, arch and brand", "[env]") {
  auto intent = with_requirement("arch>=9.0");
  CHECK(has_note(intent, "GPU 0 (NVIDIA H100) arch 9.0, brand nvidia"));
}

TEST_CASE("the longest matching model key wins, and a key word ending in * matches a word it starts",
          "[env]") {
  auto rtx = with_requirement_on({"NVIDIA GeForce RTX 4090"}, "0", "brand=geforcertx,arch=8.9");
  CHECK_FALSE(rtx.refusal);
  auto a10 = with_requirement_on({"NVIDIA A10"}, "0", "arch=8.6");
  CHECK_FALSE(a10.refusal);
  auto a100 = with_requirement_on({"NVIDIA A100-SXM4-80GB"}, "0", "arch=8.0");
  CHECK_FALSE(a100.refusal);
  auto workstation = with_requirement_on({"NVIDIA RTX A6000"}, "0", "brand=nvidiartx,arch=8.6");
  CHECK_FALSE(workstation.refusal);
}

TEST_CASE("every granted GPU must meet an arch or brand requirement", "[env]") {
  std::vector<std::string> models = {"NVIDIA H100 80GB HBM3", "Tesla V100-SXM2-16GB"};
  CHECK_FALSE(with_requirement_on(models, "0", "arch>=9.0").refusal);
  CHECK(refusal(with_requirement_on(models, "0,1", "arch>=9.0")) == "unsatisfied condition: arch>=9.0");
  CHECK(refusal(with_requirement_on(models, "1", "brand=nvidia")) == "unsatisfied condition: brand=nvidia");
}

TEST_CASE("a MIG partition is checked as its parent GPU", "[env]") {
  Inventory inv = make_inventory();
  inv.gpus[7].model = "NVIDIA A100-SXM4-80GB";
  auto met = evaluate(make_request({{"NVIDIA_VISIBLE_DEVICES", "7:0"}, {"NVIDIA_REQUIRE_ARCH", "arch=8.0"}}),
                      trusting_policy(), inv);
  CHECK_FALSE(met.refusal);
  auto unmet = evaluate(make_request({{"NVIDIA_VISIBLE_DEVICES", "7:0"}, {"NVIDIA_REQUIRE_ARCH", "arch>=9.0"}}),
                        trusting_policy(), inv);
  CHECK(refusal(unmet) == "unsatisfied condition: arch>=9.0");
}

TEST_CASE("a model the tables do not know leaves arch and brand unknown, and their terms pass", "[env]") {
  auto intent = with_requirement_on({"Prototype Accelerator X1"}, "0", "arch>=99.0,brand=tesla");
  CHECK_FALSE(intent.refusal);
  CHECK(has_note(intent, "GPU 0 (Prototype Accelerator X1) arch unknown, brand unknown"));
}

TEST_CASE("without a granted GPU, arch and brand terms pass", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "none"}, {"NVIDIA_REQUIRE_ARCH", "arch>=99.0,brand=tesla"}});
  CHECK_FALSE(intent.refusal);
  CHECK(has_note(intent, "arch and brand unknown (no GPU granted)"));
}

TEST_CASE("a CUDA image's brand alternatives let an older driver branch serve the brand it names", "[env]") {
  // driver 560 serves CUDA 12.6: only the alternative for the GPU's brand can hold.
  std::string expr = "cuda>=12.8 brand=tesla,driver>=560,driver<561 brand=nvidia,driver>=560,driver<561";
  CHECK_FALSE(with_requirement(expr).refusal);
  CHECK(refusal(with_requirement("cuda>=12.8 brand=tesla,driver>=560,driver<561")) ==
        "unsatisfied condition: cuda>=12.8" + kCudaHint);
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
  CHECK_FALSE(with_requirement("CUDA>=12.0,Driver<600,BRAND=Nvidia").refusal);
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
