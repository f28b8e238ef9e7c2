// `graft hook [prestart|createRuntime]`: the OCI runtime hook. Reads the
// state JSON on stdin, loads config.json from the bundle it names, and
// applies the plan `graft plan --bundle` prints for the same container.
// Both stages run at the same point in runc and crun (namespaces made,
// mounts done, before pivot_root); the name is accepted for the record.
#include <unistd.h>

#include "apply/oci_state.hpp"
#include "cli/commands.hpp"

namespace graft::cli {
namespace {

Result<int> run_hook(const GlobalOptions& global) {
  auto text = read_oci_state_text(STDIN_FILENO);
  if (!text) return text.error();
  auto state = parse_oci_state(*text);
  if (!state) return state.error();
  auto request = request_from_bundle(state->bundle, state->id, state->pid);
  if (!request) return request.error().context("container " + state->id);
  for (const auto& [key, value] : state->annotations) request->annotations.emplace(key, value);
  return apply_request(global, *request);
}

}  // namespace

Runner add_hook_command(CLI::App& app, const GlobalOptions& global) {
  auto stage = std::make_shared<std::string>("prestart");
  auto* command = app.add_subcommand("hook", "OCI hook: give the container in the state on stdin its GPUs");
  command->add_option("stage", *stage, "Hook stage the runtime calls us from")
      ->check(CLI::IsMember({"prestart", "createRuntime", "createContainer"}))
      ->capture_default_str();
  // The runner owns `stage`: CLI11 writes the parsed value through a reference
  // to it during parse, after this function has returned.
  return [&global, stage] {
    (void)stage;
    return run_hook(global);
  };
}

}  // namespace graft::cli
