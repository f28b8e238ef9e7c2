-- SPDX-License-Identifier: Apache-2.0
-- amd_env_values.lua: reading AMD_VISIBLE_DEVICES values, shared by the
-- amd rule files (declared in amd.toml as a rule module; `local values =
-- require("amd_env_values")`).

local M = {}

-- Linear in #s: patterns run in C, out of reach of the instruction budget,
-- and "^%s*(.-)%s*$" is quadratic on blanks inside a long value.
function M.trim(s)
  local first = s:find("%S")
  if not first then return "" end
  return s:match("^.*%S", first)
end

-- "a, b,,c" -> {"a", "b", "", "c"}: every comma-separated part, trimmed.
function M.split_commas(s)
  local parts = {}
  for part in (s .. ","):gmatch("([^,]*),") do
    parts[#parts + 1] = M.trim(part)
  end
  return parts
end

function M.starts_with(s, prefix)
  return s:sub(1, #prefix) == prefix
end

-- The GPUs of `vendor` among host.gpus, which holds every vendor's on a
-- host of several ([vendor.NAME] tables), in their own order: their
-- vendor_index counts them from 0, as the vendor's own tools do.
function M.vendor_gpus(host, vendor)
  local own = {}
  for _, gpu in ipairs(host.gpus) do
    if gpu.vendor == vendor then own[#own + 1] = gpu end
  end
  return own
end

return M
-- SPDX-License-Identifier: Apache-2.0
