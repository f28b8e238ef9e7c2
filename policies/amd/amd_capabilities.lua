-- SPDX-License-Identifier: Apache-2.0
-- amd_capabilities.lua: the capability sets an AMD GPU container gets
-- besides amd-base (always): those the site lists in [data] amd.capabilities
-- ("amd-card" for the card nodes, "amd-host-rocm" for the host's ROCm
-- libraries). Containers do not choose them: ROCm has no capability
-- variable, and the host's user space is the site's decision.

rule("amd-capabilities", "request", function(req, host, grant)
  if not grant:injecting("amd") then return end
  local names = (policy.data.amd or {}).capabilities or {}
  for _, name in ipairs(names) do
    grant:add_capability(name, "site policy [data] amd.capabilities")
  end
end)
-- SPDX-License-Identifier: Apache-2.0
