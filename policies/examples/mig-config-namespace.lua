-- mig-config-namespace.lua: MIG management (the `mig-config` and
-- `mig-monitor` extras: creating, destroying and watching GPU instances on
-- every visible MIG-capable GPU) is reserved for the Kubernetes namespaces
-- listed in policy.data.mig_admin_namespaces.
--
-- The namespace is read from the annotation `io.kubernetes.pod.namespace`,
-- which the CRI runtime (containerd, CRI-O) sets from the pod itself. A
-- container that was granted one of these extras by an earlier rule, from
-- any other namespace or from no pod at all, is REFUSED: it asked for MIG
-- management, and starting it without would only fail later, less clearly.
-- Containers that did not ask are not affected.
--
-- Site policy:
--   rules = ["/usr/share/graft/policies/examples/mig-config-namespace.lua"]
--   [data]
--   mig_admin_namespaces = ["gpu-operator"]

local EXTRAS = {["mig-config"] = true, ["mig-monitor"] = true}
local NAMESPACE = "io.kubernetes.pod.namespace"

local function admin_namespace(namespace)
  if namespace == nil then return false end
  for _, allowed in ipairs(policy.data.mig_admin_namespaces or {}) do
    if allowed == namespace then return true end
  end
  return false
end

rule("mig-config-namespace", function(req, host, grant)
  local asked = {}
  for _, extra in ipairs(grant:extras()) do
    if EXTRAS[extra] then asked[#asked + 1] = extra end
  end
  if #asked == 0 then return end
  local namespace = req.annotations[NAMESPACE]
  if admin_namespace(namespace) then return end
  local where = namespace and ("namespace '" .. namespace .. "'") or "a container outside any pod namespace"
  grant:deny(table.concat(asked, " and ") .. " is reserved for policy.data.mig_admin_namespaces, not " .. where)
end)
-- SPDX-License-Identifier: Apache-2.0
