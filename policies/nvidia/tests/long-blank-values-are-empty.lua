-- Values that are a mebibyte of blanks only are empty after trimming: the
-- default capabilities, no MIG management, no refusal.
local blanks = string.rep(" ", 1 << 20)
return {
  request = {
    env = { NVIDIA_VISIBLE_DEVICES = "0", NVIDIA_DRIVER_CAPABILITIES = blanks, NVIDIA_MIG_CONFIG_DEVICES = blanks },
  },
  expect = { refused = false, capabilities = { "compute", "utility" } },
}
-- SPDX-License-Identifier: Apache-2.0
