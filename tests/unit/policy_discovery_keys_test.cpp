// SPDX-License-Identifier: Apache-2.0
// The [discovery] keys for record files other than procfs information files:
// gpu_record_format, gpu_skip, gpu_field_transforms, version_required.
#include "policy_support.hpp"

using namespace graft;
using namespace graft::policy_test;

TEST_CASE("the record format, skip fields and field transforms are read from [discovery]", "[policy]") {
  PolicyFiles files;
  auto path = files.write("graft.toml",
                          "[discovery]\ngpu_record_format = \"space\"\ngpu_skip = { gpu_id = \"0\" }\n"
                          "gpu_fields = { bus_domain = \"domain\" }\n"
                          "gpu_field_transforms = { bus_id = \"pci-location-id\", uuid = \"hex\" }\n"
                          "version_required = false\n");
  auto policy = load_policy(path, PolicySearch{});
  REQUIRE(policy);
  const Discovery& discovery = policy->discovery;
  CHECK(discovery.gpu_record_format == Discovery::RecordFormat::space);
  CHECK(discovery.gpu_skip.at("gpu_id") == "0");
  CHECK(discovery.gpu_fields.at("bus_domain") == "domain");
  CHECK(discovery.gpu_field_transforms.at("bus_id") == Discovery::FieldTransform::pci_location_id);
  CHECK(discovery.gpu_field_transforms.at("uuid") == Discovery::FieldTransform::hex);
  CHECK_FALSE(discovery.version_required);
}

TEST_CASE("records default to the colon format and the version file to required", "[policy]") {
  PolicyFiles files;
  auto policy = load_policy(files.write("graft.toml", "[discovery]\n"), PolicySearch{});
  REQUIRE(policy);
  CHECK(policy->discovery.gpu_record_format == Discovery::RecordFormat::colon);
  CHECK(policy->discovery.version_required);
}

TEST_CASE("an unknown record format or field transform is an error with a suggestion", "[policy]") {
  CHECK(error_in_file("[discovery]\ngpu_record_format = \"spaces\"\n") ==
        "F:2:21: discovery.gpu_record_format: unknown record format 'spaces' (colon or space); did you mean "
        "'space'?");
  CHECK(error_in_file("[discovery]\ngpu_field_transforms = { bus_id = \"pci-location\" }\n") ==
        "F:2:35: discovery.gpu_field_transforms.bus_id: unknown field transform 'pci-location' "
        "(pci-location-id or hex); did you mean 'pci-location-id'?");
  CHECK(error_in_file("[discovery]\ngpu_field_transforms = { model = \"hex\" }\n") ==
        "F:2:26: discovery.gpu_field_transforms.model: unknown key");
}
