// SPDX-License-Identifier: Apache-2.0
// evaluate_rules: a fresh Sandbox per evaluation; every file of
// Policy::rules loaded in order (each may require Policy::rule_modules), then
// the registered rules run phase by phase (rule_phase.hpp), in registration
// order within a phase, over the read-only views, building the Intent
// through the grant object.
#include "rules/evaluate_rules.hpp"

#include <cctype>
#include <charconv>
#include <exception>
#include <memory>
#include <string_view>
#include <vector>

#include "intent/intent_changes.hpp"
#include "sandbox/environment.hpp"
#include "rules/grant.hpp"
#include "rules/grant_api.hpp"
#include "rules/rule_book.hpp"
#include "sandbox/rule_file.hpp"
#include "sandbox/rule_modules.hpp"
#include "sandbox/sandbox.hpp"
#include "rules/view_reads.hpp"
#include "rules/views.hpp"

namespace graft {

namespace {

using namespace graft::rules;

// A load failure, marked so that a caller tells it from a rule failing at run
// time (engine/plain_request.hpp) without reading the message.
Error not_loaded(Error error) {
  error.kind = ErrorKind::rules_not_loaded;
  return error;
}

struct RuleFile {
  std::string path;
  std::string short_src;  // how Lua names it in messages (long paths are shortened)
};

class RuleRun {
 public:
  RuleRun(const Request& request, const Inventory& inventory, const Policy& policy,
          std::vector<RuleActivity>* activity, ActivityDetail detail)
      : activity_(activity),
        reads_(activity && detail == ActivityDetail::explained ? std::make_unique<ViewReads>() : nullptr),
        policy_(policy),
        inventory_(inventory),
        request_facts_(request_facts(request, policy)),
        policy_facts_(policy_facts(policy)),
        grant_(inventory, policy),
        modules_(policy.rule_modules) {}

  Status load_rules();
  // The rules load_rules() registered, in registration order, none run yet.
  std::vector<RuleActivity> registered() const;
  Result<Intent> run();

 private:
  static int setup(lua_State* L);
  Status prepare();
  Status load(const SourcedString& file);
  Result<bool> run_rule(std::size_t i);
  Result<bool> run_observed(std::size_t i);
  Sandbox::Failure locate(Sandbox::Failure failure) const;
  std::vector<RuleFile> loaded_sources() const;

  std::vector<RuleActivity>* activity_;
  std::unique_ptr<ViewReads> reads_;  // null unless explaining; outlives the sandbox
  const Policy& policy_;
  const Inventory& inventory_;
  RequestFacts request_facts_;
  PolicyFacts policy_facts_;
  Grant grant_;
  RuleBook book_;
  RuleModules modules_;
  std::vector<RuleFile> files_;
  TrustedDirs dirs_;  // the rule files' directories, each walked once
  int request_ref_ = LUA_NOREF;
  int host_ref_ = LUA_NOREF;
  int grant_ref_ = LUA_NOREF;
  // Declared last so the Lua state closes before the data its views point at.
  std::unique_ptr<Sandbox> sandbox_;
};

Status RuleRun::load_rules() {
  auto sandbox = Sandbox::create(policy_.limits);
  if (!sandbox) return sandbox.error();
  sandbox_ = std::move(sandbox.value());
  if (Status prepared = prepare(); !prepared) return prepared;
  for (const SourcedString& file : policy_.rules)
    if (Status loaded = load(file); !loaded) return loaded;
  book_.close();
  return ok_status();
}

std::vector<RuleActivity> RuleRun::registered() const {
  std::vector<RuleActivity> rules;
  for (const RegisteredRule& rule : book_.rules()) {
    rules.push_back({rule.name, rule.origin});
    rules.back().phase = rule.phase;
  }
  return rules;
}

Result<Intent> RuleRun::run() {
  if (Status loaded = load_rules(); !loaded) return not_loaded(loaded.error());
  if (activity_) *activity_ = registered();
  for (RulePhase phase : kRulePhases) {
    grant_.enter_phase(phase);
    for (std::size_t i = 0; i < book_.rules().size(); ++i) {
      if (book_.rules()[i].phase != phase) continue;
      Result<bool> refused = run_observed(i);
      if (!refused) return refused.error();
      if (*refused) return grant_.take();  // grant:deny ends the evaluation
    }
  }
  return grant_.take();
}

// run_rule, noting in activity_ (when asked for) that the rule ran and
// whether the Intent changed: a copy per rule, paid only by those who ask.
// Explaining, it also notes what the rule read and what it changed. Either
// way it notes the rule's reads of undeclared policy.data keys.
Result<bool> RuleRun::run_observed(std::size_t i) {
  if (!activity_) return run_rule(i);
  RuleActivity& activity = (*activity_)[i];
  Intent before = grant_.intent();
  if (reads_) reads_->start_rule(&activity.reads, &activity.reads_left_out);
  policy_facts_.undeclared_reads = &activity.undeclared_reads;
  Result<bool> refused = run_rule(i);
  policy_facts_.undeclared_reads = nullptr;
  if (reads_) reads_->stop_rule();
  activity.ran = true;
  activity.failed = !refused.ok();
  activity.changed = !(grant_.intent() == before);
  if (reads_ && activity.changed) activity.changes = intent_changes(before, grant_.intent());
  return refused;
}

int RuleRun::setup(lua_State* L) {
  auto* self = static_cast<RuleRun*>(lua_touserdata(L, 1));
  open_safe_libraries(L);
  register_views(L);
  attach_view_reads(L, self->reads_.get());
  register_grant_api(L);
  self->book_.install(L);
  self->modules_.install(L);
  push_policy_view(L, self->policy_facts_);
  name_view(L, -1, "policy");
  add_global(L, "policy");
  // The names the documented rules give their arguments.
  push_request_view(L, self->request_facts_);
  name_view(L, -1, "req");
  self->request_ref_ = luaL_ref(L, LUA_REGISTRYINDEX);
  push_host_view(L, self->inventory_);
  name_view(L, -1, "host");
  self->host_ref_ = luaL_ref(L, LUA_REGISTRYINDEX);
  push_grant(L, self->grant_);
  self->grant_ref_ = luaL_ref(L, LUA_REGISTRYINDEX);
  return 0;
}

Status RuleRun::prepare() {
  lua_State* L = sandbox_->state();
  lua_pushcfunction(L, &RuleRun::setup);
  lua_pushlightuserdata(L, this);
  if (auto failure = sandbox_->call(1))
    return make_error("cannot prepare the rules sandbox: {}", failure->message);
  return ok_status();
}

Status RuleRun::load(const SourcedString& file) {
  Result<std::string> text = read_rule_text(file.value, dirs_);
  if (!text) return file.origin.empty() ? text.error() : text.error().context(file.origin.full());
  std::string chunkname = "@" + file.value;
  ChunkSource source{chunkname.c_str(), text->data(), text->size(), {}};
  lua_State* L = sandbox_->state();
  lua_pushcfunction(L, load_rule_chunk);
  lua_pushlightuserdata(L, &source);
  std::optional<Sandbox::Failure> failure = sandbox_->call(1);
  files_.push_back(RuleFile{file.value, source.short_src});
  if (!failure) return ok_status();
  Sandbox::Failure located = locate(std::move(*failure));
  std::string where = located.where.empty() ? file.value : located.where.full();
  return make_error("{}: {}", where, located.message);
}

// True when the rule refused the container.
Result<bool> RuleRun::run_rule(std::size_t i) {
  const RegisteredRule& rule = book_.rules()[i];
  grant_.enter_rule(rule.name);
  lua_State* L = sandbox_->state();
  book_.push_function(L, i);
  lua_rawgeti(L, LUA_REGISTRYINDEX, request_ref_);
  lua_rawgeti(L, LUA_REGISTRYINDEX, host_ref_);
  lua_rawgeti(L, LUA_REGISTRYINDEX, grant_ref_);
  std::optional<Sandbox::Failure> failure = sandbox_->call(3);
  // A refusal stands unless a limit was hit; the error grant:deny raised to
  // stop the rule is not a failure.
  if (failure && (sandbox_->limit_exceeded() || !grant_.refused())) {
    Sandbox::Failure located = locate(std::move(*failure));
    const Origin& where = located.where.empty() ? rule.origin : located.where;
    return make_error("rule '{}' ({}): {}", rule.name, where.full(), located.message);
  }
  return grant_.refused();
}

// Rule files and the modules loaded so far, with Lua's names for them.
std::vector<RuleFile> RuleRun::loaded_sources() const {
  std::vector<RuleFile> sources = files_;
  for (const RuleModules::Module& module : modules_.modules())
    sources.push_back(RuleFile{module.path, module.source.short_src});
  return sources;
}

// Lua starts messages with "<short_src>:<line>: ". When short_src names a
// loaded file or module, that position replaces the frame position: it is the one the
// error was raised for (error(msg, 2) points at the caller).
Sandbox::Failure RuleRun::locate(Sandbox::Failure failure) const {
  std::string_view message = failure.message;
  for (const RuleFile& file : loaded_sources()) {
    if (file.short_src.empty() || !message.starts_with(file.short_src)) continue;
    std::string_view rest = message.substr(file.short_src.size());
    if (!rest.starts_with(':')) continue;
    rest.remove_prefix(1);
    int line = 0;
    auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), line);
    if (error != std::errc() || end == rest.data()) continue;
    rest.remove_prefix(static_cast<std::size_t>(end - rest.data()));
    if (!rest.starts_with(": ")) continue;
    return Sandbox::Failure{std::string(rest.substr(2)), Origin{file.path, line, 0}};
  }
  return failure;
}

}  // namespace

Result<Intent> evaluate_rules(const Request& request, const Inventory& inventory, const Policy& policy,
                              std::vector<RuleActivity>* activity, ActivityDetail detail) {
  try {
    return RuleRun(request, inventory, policy, activity, detail).run();
  } catch (const std::exception& e) {
    return make_error("evaluating rules: {}", e.what());
  }
}

Result<std::vector<RuleActivity>> registered_rules(const Policy& policy) {
  try {
    Request request;
    Inventory inventory;
    RuleRun run(request, inventory, policy, nullptr, ActivityDetail::outcome);
    if (Status loaded = run.load_rules(); !loaded) return not_loaded(loaded.error());
    return run.registered();
  } catch (const std::exception& e) {
    return make_error("loading rules: {}", e.what());
  }
}

}  // namespace graft
