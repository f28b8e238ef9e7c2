-- A device list with a mebibyte of blanks between two ids is refused promptly:
-- the rules trim values in linear time (patterns run in C, out of reach of the
-- sandbox's instruction budget, so a quadratic trim would hang the hook; the
-- suite's ctest timeout is the bound).
return {
  request = { env = { NVIDIA_VISIBLE_DEVICES = "0" .. string.rep(" ", 1 << 20) .. "1" } },
  expect = { refused = "^unknown device '0 " },
}
-- SPDX-License-Identifier: Apache-2.0
