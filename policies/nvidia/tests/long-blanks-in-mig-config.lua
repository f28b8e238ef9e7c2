-- A MIG config request with a mebibyte of blanks inside is refused promptly
-- (linear trimming, as for device lists).
return {
  request = {
    env = { NVIDIA_VISIBLE_DEVICES = "0", NVIDIA_MIG_CONFIG_DEVICES = "0" .. string.rep(" ", 1 << 20) .. "1" },
    privileged = true,
  },
  expect = { refused = "^invalid NVIDIA_MIG_CONFIG_DEVICES '0 " },
}
-- SPDX-License-Identifier: Apache-2.0
