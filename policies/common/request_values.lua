-- request_values.lua: what every vendor policy's rules share for reading a
-- request: comma-separated values, and the GPUs of one vendor on a host of
-- several. Declared by each vendor policy as a rule module
-- (rule_modules = ["../common/request_values.lua"]; one module however many
-- include it) and required as `local values = require("request_values")`.

local M = {}

-- Linear in #s: patterns run in C, out of reach of the instruction budget,
-- and "^%s*(.-)%s*$" is quadratic on blanks inside a long value (a hang).
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
