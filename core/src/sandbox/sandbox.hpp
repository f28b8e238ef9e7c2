// SPDX-License-Identifier: Apache-2.0
// Sandbox: one Lua state for one evaluation, with the two hard limits of
// Policy::limits. Memory goes through a counting allocator that refuses
// growth past the cap; a count hook charges every instruction against the
// budget. Exceeding either, or a rule's grant:deny, *stops* the sandbox:
// from then on every instruction and every pcall raises again, so rule code
// cannot swallow the stop, and the engine reports the stop itself whatever
// the rule returned.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <lua.hpp>

#include "graft/base/error.hpp"
#include "policy/origin.hpp"
#include "policy/policy.hpp"
#include "sandbox/block_pool.hpp"
#include "sandbox/place.hpp"

namespace graft::rules {

class Sandbox {
 public:
  enum class Stop { none, budget, memory, halted };

  // A failed protected call: the message as Lua produced it (it may still
  // start with "<chunk>:<line>: ") and the innermost rule position.
  struct Failure {
    std::string message;
    Origin where;
  };

  static Result<std::unique_ptr<Sandbox>> create(const Limits& limits);
  ~Sandbox();
  Sandbox(const Sandbox&) = delete;
  Sandbox& operator=(const Sandbox&) = delete;

  lua_State* state() const { return L_; }
  static Sandbox& of(lua_State* L);

  // Calls the function lying below `nargs` arguments on the stack, protected,
  // and pops it. A budget or memory stop is reported as the failure even when
  // the call itself returned normally.
  std::optional<Failure> call(int nargs);

  Stop stopped() const { return stop_; }
  bool limit_exceeded() const { return stop_ == Stop::budget || stop_ == Stop::memory; }
  // For pcall-like functions: folds a memory error into the stop, then raises
  // again if the sandbox is stopped. Returns normally otherwise.
  void after_protected_call(lua_State* L, int status);
  // Stops the sandbox on behalf of the rules (grant:deny) and raises.
  int halt(lua_State* L);

 private:
  explicit Sandbox(const Limits& limits);
  static void* allocate(void* ud, void* block, size_t old_size, size_t new_size) noexcept;
  void release(void* block, size_t size);
  void* resize(void* block, size_t old_size, size_t new_size);
  static void count_hook(lua_State* L, lua_Debug* ar);
  static int message_handler(lua_State* L);
  void stop(Stop why);
  int raise_stop(lua_State* L);
  const std::string& stop_message() const;

  BlockPool pool_;  // freed last, after ~Sandbox has closed the state
  lua_State* L_ = nullptr;
  std::uint64_t memory_limit_;
  std::uint64_t memory_used_ = 0;
  std::uint64_t budget_;
  std::uint64_t executed_ = 0;
  int step_ = 0;  // instructions between two hook calls
  Stop stop_ = Stop::none;
  Place stop_place_;     // where the budget ran out, or the memory error arose
  Place refusal_place_;  // where the allocator last refused
  Place error_place_;    // where the error of the last call() was raised
  std::string budget_message_;
  std::string memory_message_;
  std::string halt_message_ = "evaluation stopped by grant:deny";
};

}  // namespace graft::rules
