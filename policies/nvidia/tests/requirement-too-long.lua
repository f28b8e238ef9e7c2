-- A requirement expression longer than 4096 characters is invalid.
local expr = "driver>=1"
while #expr <= 4096 do expr = expr .. ",driver>=1" end
return {
  request = { env = { NVIDIA_VISIBLE_DEVICES = "0", NVIDIA_REQUIRE_CUDA = expr } },
  host = { driver_version = "560.35.03" },
  expect = { refused = "^invalid expression in NVIDIA_REQUIRE_CUDA: longer than 4096 characters$" },
}
-- SPDX-License-Identifier: Apache-2.0
