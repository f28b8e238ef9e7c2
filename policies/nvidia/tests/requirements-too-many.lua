-- More than 32 NVIDIA_REQUIRE_* variables are refused, saying how many.
local env = { NVIDIA_VISIBLE_DEVICES = "0" }
for i = 0, 32 do env[string.format("NVIDIA_REQUIRE_X%02d", i)] = "driver>=1" end
return {
  request = { env = env },
  host = { driver_version = "560.35.03" },
  expect = { refused = "^too many requirements: 33 NVIDIA_REQUIRE_\\* constraints \\(at most 32\\)$" },
}
-- SPDX-License-Identifier: Apache-2.0
