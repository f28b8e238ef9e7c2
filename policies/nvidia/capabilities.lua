-- capabilities.lua: NVIDIA_DRIVER_CAPABILITIES, read the way the toolkit's
-- prestart hook reads it (getDriverCapabilities):
--   unset or empty        -> policy.default_capabilities
--   unset, legacy image   -> every supported capability
--   `all` in the list     -> every name in policy.data.supported_capabilities
--   an unsupported name   -> refusal (the hook panics there)
-- Only applies to containers that visible_devices.lua decided to inject.
-- Like upstream, the variable is honoured whatever channel selected the
-- devices: it chooses driver files, not GPUs; sites narrow it with their own
-- rules (grant:drop_capability).

local values = require("request_values")
local trim, split_commas = values.trim, values.split_commas
local is_legacy_image = require("env_values").is_legacy_image

local ENV_NAME = "NVIDIA_DRIVER_CAPABILITIES"

-- The names a container may ask for. Defined capability sets that are not
-- listed (e.g. sets injected always) cannot be requested by name.
local function supported_names()
  local names = {}
  local listed = policy.data.supported_capabilities
  if listed == nil then listed = policy.capabilities end
  for _, name in ipairs(listed) do names[#names + 1] = name end
  return names
end

local function add_all(grant, names, reason)
  for _, name in ipairs(names) do grant:add_capability(name, reason) end
end

-- The capabilities a set value asks for, or nil plus a refusal.
local function requested_names(value, supported)
  local known = {}
  for _, name in ipairs(supported) do known[name] = true end
  local names, wants_all = {}, false
  for _, name in ipairs(split_commas(value)) do
    if name == "all" then
      wants_all = true
    elseif name ~= "" and not known[name] then
      return nil, "unsupported capability '" .. name .. "' in " .. ENV_NAME ..
                  " (supported: " .. table.concat(supported, ", ") .. ", all)"
    elseif name ~= "" then
      names[#names + 1] = name
    end
  end
  if wants_all then return supported end
  return names
end

rule("nvidia-driver-capabilities", "request", function(req, host, grant)
  if not grant:injecting("nvidia") then return end
  local value = req.env[ENV_NAME]
  local supported = supported_names()

  if value == nil and is_legacy_image(req.env) then
    local reason = "legacy CUDA image: CUDA_VERSION=" .. req.env.CUDA_VERSION .. ", " ..
                   ENV_NAME .. " unset"
    grant:note("capabilities=" .. table.concat(supported, ",") .. " (" .. reason .. ")")
    return add_all(grant, supported, reason)
  end

  if value == nil or trim(value) == "" then
    local defaults = {}
    for _, name in ipairs(policy.default_capabilities) do defaults[#defaults + 1] = name end
    local reason = "policy default capabilities: " .. ENV_NAME .. (value == nil and " unset" or " empty")
    grant:note("capabilities=" .. table.concat(defaults, ",") .. " (" .. reason .. ")")
    return add_all(grant, defaults, reason)
  end

  local names, refusal = requested_names(value, supported)
  if not names then return grant:deny(refusal) end
  local reason = ENV_NAME .. "=" .. value
  grant:note("capabilities=" .. table.concat(names, ",") .. " (env " .. reason .. ")")
  add_all(grant, names, reason)
end)
-- SPDX-License-Identifier: Apache-2.0
