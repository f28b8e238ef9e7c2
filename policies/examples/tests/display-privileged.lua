-- no-display-unprivileged.lua: a privileged container keeps display and
-- graphics. (A case may be Lua returning the same table as a TOML case.)
return {
  request = {
    env = { NVIDIA_VISIBLE_DEVICES = "0", NVIDIA_DRIVER_CAPABILITIES = "graphics,display" },
    annotations = { ["example.com/tenant"] = "platform" },
    privileged = true,
  },
  expect = {
    capabilities = { "graphics", "display" },
    denied = {},
    actions_present = { { kind = "device_node", target = "/dev/nvidia-modeset" } },
  },
}
-- SPDX-License-Identifier: Apache-2.0
