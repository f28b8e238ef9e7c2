-- no-display-unprivileged.lua: unprivileged containers never get the
-- display or graphics capability sets, whatever they ask for.
--
-- Those sets carry the X11/EGL/Vulkan/OpenGL driver libraries and their
-- config files. Batch and inference workloads do not need them, and every
-- extra driver library is more host code mapped into an untrusted container.
-- Privileged containers (CAP_SYS_ADMIN, e.g. a visualisation node's own
-- tooling) keep what they asked for.
--
-- Enable it in the site policy, after the vendor rules (they decide which
-- capabilities a container asked for; this rule narrows that):
--   rules = ["/usr/share/graft/policies/examples/no-display-unprivileged.lua"]
-- Each dropped set appears in the plan as a denial ("capability display").

local DROPPED = {"display", "graphics"}

-- Only names the policy defines: dropping an undefined name is an error.
local function defined(name)
  for _, known in ipairs(policy.capabilities) do
    if known == name then return true end
  end
  return false
end

rule("no-display-unprivileged", function(req, host, grant)
  if req.privileged or not grant:injecting() then return end
  for _, name in ipairs(DROPPED) do
    if defined(name) then grant:drop_capability(name, "unprivileged container") end
  end
end)
-- SPDX-License-Identifier: Apache-2.0
