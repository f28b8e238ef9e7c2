// SPDX-License-Identifier: Apache-2.0
#include "race_hook.hpp"
#include "hook_timing.hpp"

#include <fstream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace graft::e2e {
namespace {

// Runtimes start hooks with an empty environment, hence absolute paths.
// graft's exit status is the hook's, so a refusal still stops the runtime.
std::string wrapper(const std::string& policy, const RaceSignals& signals,
                    const std::string& mountinfo_copy, const std::string& after_graft) {
  return fmt::format(R"SH(state=$(/bin/cat)
pid=$(printf '%s' "$state" | /bin/sed -n 's/.*"pid": *\([0-9][0-9]*\).*/\1/p')
read go < '{started}'
printf '%s' "$state" | '{graft}' --policy '{policy}' hook prestart
rc=$?
{after_graft}
/bin/cat "/proc/$pid/mountinfo" > '{mountinfo}'
: > '{done}'
read go < '{swapper_done}'
exit $rc
)SH",
                     fmt::arg("started", signals.hook_started), fmt::arg("graft", GRAFT_BINARY),
                     fmt::arg("policy", policy), fmt::arg("after_graft", after_graft),
                     fmt::arg("mountinfo", mountinfo_copy),
                     fmt::arg("done", signals.hook_done),
                     fmt::arg("swapper_done", signals.swapper_done));
}

}  // namespace

void install_race_hook(const std::string& bundle, const std::string& policy,
                       const RaceSignals& signals, const std::string& mountinfo_copy,
                       const std::string& after_graft) {
  const std::string path = bundle + "/config.json";
  nlohmann::json config;
  {
    std::ifstream in(path);
    config = nlohmann::json::parse(in);
  }
  config["hooks"]["prestart"] = nlohmann::json::array(
      {{{"path", "/bin/sh"},
        {"args", {"sh", "-c", wrapper(policy, signals, mountinfo_copy, after_graft)}},
        {"timeout", kRuntimeHookTimeoutS}}});
  std::ofstream out(path, std::ios::trunc);
  out << config.dump(2) << "\n";
  if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace graft::e2e
