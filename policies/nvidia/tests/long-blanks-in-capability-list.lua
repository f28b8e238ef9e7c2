-- A capability list with a mebibyte of blanks inside a name is refused
-- promptly (linear trimming, as for device lists).
return {
  request = {
    env = { NVIDIA_VISIBLE_DEVICES = "0", NVIDIA_DRIVER_CAPABILITIES = "0" .. string.rep(" ", 1 << 20) .. "1" },
  },
  expect = { refused = "^unsupported capability '0 " },
}
-- SPDX-License-Identifier: Apache-2.0
