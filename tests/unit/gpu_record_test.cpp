// SPDX-License-Identifier: Apache-2.0
// GPU records: "Key: value" and "key value" files, and records to skip.
#include <catch2/catch.hpp>

#include "inventory/gpu_record.hpp"

using namespace graft;

TEST_CASE("a colon record keeps the text after the first colon, trimmed", "[inventory][gpu_record]") {
  auto record = parse_gpu_record("Model:     Fake GPU\nBus Location: 0000:19:00.0\nno separator\n",
                                 Discovery::RecordFormat::colon);
  CHECK(record.size() == 2);
  CHECK(record["Model"] == "Fake GPU");
  CHECK(record["Bus Location"] == "0000:19:00.0");
}

TEST_CASE("a space record splits each line at its first blank", "[inventory][gpu_record]") {
  auto record = parse_gpu_record("cpu_cores_count 0\n  gpu_id\t4242\ndrm_render_minor 128\nlone\n\n",
                                 Discovery::RecordFormat::space);
  CHECK(record.size() == 3);
  CHECK(record["cpu_cores_count"] == "0");
  CHECK(record["gpu_id"] == "4242");
  CHECK(record["drm_render_minor"] == "128");
}

TEST_CASE("a repeated key keeps its first value", "[inventory][gpu_record]") {
  auto record = parse_gpu_record("gpu_id 1\ngpu_id 2\n", Discovery::RecordFormat::space);
  CHECK(record["gpu_id"] == "1");
}

TEST_CASE("a record is skipped when a skip field has the given value", "[inventory][gpu_record]") {
  std::map<std::string, std::string> skip{{"gpu_id", "0"}};
  CHECK(skipped_record({{"gpu_id", "0"}}, skip));
  CHECK_FALSE(skipped_record({{"gpu_id", "4242"}}, skip));
  CHECK_FALSE(skipped_record({{"other", "0"}}, skip));
  CHECK_FALSE(skipped_record({{"gpu_id", "0"}}, {}));
}
