-- feature_devices.lua: the toolkit's feature-gated devices. A GPU container
-- whose env sets a feature's variable (NVIDIA_GDS, NVIDIA_MOFED,
-- NVIDIA_NVSWITCH, NVIDIA_GDRCOPY) to exactly "enabled" gets that feature's
-- device classes (policy.data.feature_devices.<feature>.devices), when the
-- environment is a trusted request channel and, in an unprivileged
-- container, the feature's `unprivileged` is true.
-- Only applies to containers that visible_devices.lua decided to inject.

local trim = require("request_values").trim

local function feature_names()
  local names = {}
  for name in pairs(policy.data.feature_devices or {}) do names[#names + 1] = name end
  table.sort(names)  -- a stable order for the plan and the audit
  return names
end

-- Why the feature is not granted, or nil when it may be.
local function refusal(req, feature)
  if not req.trusted.env then return "the environment is not a trusted request channel" end
  if not req.privileged and not feature.unprivileged then
    return "unprivileged containers may not enable it (feature_devices unprivileged = false)"
  end
end

rule("nvidia-feature-devices", "request", function(req, host, grant)
  if not grant:injecting("nvidia") then return end
  for _, name in ipairs(feature_names()) do
    local feature = policy.data.feature_devices[name]
    if type(feature.env) ~= "string" then
      error("policy.data.feature_devices." .. name .. ".env must name the variable that enables it")
    end
    local value = trim(req.env[feature.env] or "")
    if value == "enabled" then
      local why = refusal(req, feature)
      if why then
        grant:note("ignored " .. feature.env .. "=enabled: " .. why)
      else
        for _, class in ipairs(feature.devices or {}) do grant:add_node(class, feature.env .. "=enabled") end
      end
    elseif value ~= "" then
      grant:note("ignored " .. feature.env .. "='" .. value .. "' (only 'enabled' turns it on)")
    end
  end
end)
-- SPDX-License-Identifier: Apache-2.0
