// SPDX-License-Identifier: Apache-2.0
// The Lua state of one evaluation: counting allocator, instruction budget,
// sticky stops and protected calls that report where an error arose.
#include "sandbox/sandbox.hpp"

#include <algorithm>
#include <cstdlib>

namespace graft::rules {

namespace {

// Hook granularity: small enough that a stop raised by the allocator or by
// grant:deny is noticed promptly, large enough to cost nothing measurable.
constexpr std::uint64_t kMaxStep = 1000;

}  // namespace

Sandbox::Sandbox(const Limits& limits)
    : memory_limit_(limits.rule_memory_bytes),
      budget_(limits.rule_instructions),
      budget_message_(fmt::format("instruction budget of {} exceeded", limits.rule_instructions)),
      memory_message_(fmt::format("memory limit ({} bytes) exceeded", limits.rule_memory_bytes)) {}

Result<std::unique_ptr<Sandbox>> Sandbox::create(const Limits& limits) {
  std::unique_ptr<Sandbox> sandbox(new Sandbox(limits));
  sandbox->L_ = lua_newstate(&Sandbox::allocate, sandbox.get());
  if (sandbox->L_ == nullptr)
    return make_error("memory limit ({} bytes) is too small to start the rules sandbox",
                      limits.rule_memory_bytes);
  sandbox->step_ = static_cast<int>(std::clamp<std::uint64_t>(sandbox->budget_, 1, kMaxStep));
  lua_sethook(sandbox->L_, &Sandbox::count_hook, LUA_MASKCOUNT, sandbox->step_);
  return sandbox;
}

Sandbox::~Sandbox() {
  if (L_ != nullptr) lua_close(L_);
}

Sandbox& Sandbox::of(lua_State* L) {
  void* ud = nullptr;
  lua_getallocf(L, &ud);
  return *static_cast<Sandbox*>(ud);
}

void* Sandbox::allocate(void* ud, void* block, size_t old_size, size_t new_size) noexcept {
  auto* self = static_cast<Sandbox*>(ud);
  // With no block, old_size is a type tag, not a size.
  std::uint64_t old_bytes = block != nullptr ? old_size : 0;
  if (new_size == 0) {
    self->release(block, old_bytes);
    self->memory_used_ -= old_bytes;
    return nullptr;
  }
  if (new_size > old_bytes && self->memory_used_ - old_bytes + new_size > self->memory_limit_) {
    // Lua may collect and retry, so this is not yet an error: remember where.
    if (self->L_ != nullptr) find_place(self->L_, 0, self->refusal_place_);
    return nullptr;
  }
  void* grown = self->resize(block, old_bytes, new_size);
  if (grown == nullptr) return nullptr;  // growing failed; shrinking never does
  self->memory_used_ = self->memory_used_ - old_bytes + new_size;
  return grown;
}

// AddressSanitizer sees each Lua object as its own heap block only when
// the C allocator hands it out: the pool is left out of sanitized builds.
#if defined(__SANITIZE_ADDRESS__)
void Sandbox::release(void* block, size_t) { std::free(block); }
void* Sandbox::resize(void* block, size_t old_size, size_t new_size) {
  void* moved = std::realloc(block, new_size);
  return moved == nullptr && new_size <= old_size ? block : moved;
}
#else
void Sandbox::release(void* block, size_t size) { pool_.release(block, size); }
void* Sandbox::resize(void* block, size_t old_size, size_t new_size) {
  return pool_.resize(block, old_size, new_size);
}
#endif

void Sandbox::count_hook(lua_State* L, lua_Debug*) {
  Sandbox& self = of(L);
  if (self.stop_ == Stop::none) {
    self.executed_ += static_cast<std::uint64_t>(self.step_);
    if (self.executed_ < self.budget_) {
      std::uint64_t left = self.budget_ - self.executed_;
      if (left < static_cast<std::uint64_t>(self.step_)) {
        self.step_ = static_cast<int>(left);
        lua_sethook(L, &Sandbox::count_hook, LUA_MASKCOUNT, self.step_);
      }
      return;
    }
    find_place(L, 0, self.stop_place_);
    self.stop(Stop::budget);
  }
  self.raise_stop(L);
}

void Sandbox::stop(Stop why) {
  if (stop_ != Stop::none) return;
  stop_ = why;
  if (why == Stop::memory) stop_place_ = refusal_place_;
  // From now on every instruction raises again.
  step_ = 1;
  lua_sethook(L_, &Sandbox::count_hook, LUA_MASKCOUNT, 1);
}

const std::string& Sandbox::stop_message() const {
  switch (stop_) {
    case Stop::budget: return budget_message_;
    case Stop::memory: return memory_message_;
    default: return halt_message_;
  }
}

int Sandbox::raise_stop(lua_State* L) {
  lua_pushstring(L, stop_message().c_str());
  return lua_error(L);
}

void Sandbox::after_protected_call(lua_State* L, int status) {
  if (status == LUA_ERRMEM) stop(Stop::memory);
  if (stop_ == Stop::none) return;
  // Re-raise the error object already on the stack: that needs no memory.
  if (status != LUA_OK) lua_error(L);
  raise_stop(L);
}

int Sandbox::halt(lua_State* L) {
  stop(Stop::halted);
  return raise_stop(L);
}

int Sandbox::message_handler(lua_State* L) {
  Sandbox& self = of(L);
  find_place(L, 1, self.error_place_);
  if (lua_type(L, 1) == LUA_TSTRING) return 1;
  if (luaL_callmeta(L, 1, "__tostring") != 0 && lua_type(L, -1) == LUA_TSTRING) return 1;
  lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
  return 1;
}

std::optional<Sandbox::Failure> Sandbox::call(int nargs) {
  int base = lua_gettop(L_) - nargs;
  lua_pushcfunction(L_, &Sandbox::message_handler);
  lua_insert(L_, base);
  error_place_ = Place{};
  int status = lua_pcall(L_, nargs, 0, base);
  if (status == LUA_ERRMEM) stop(Stop::memory);

  std::optional<Failure> failure;
  if (limit_exceeded()) {
    failure = Failure{stop_message(), stop_place_.origin()};
  } else if (status != LUA_OK) {
    std::string message = "error object is not a string";
    if (lua_type(L_, -1) == LUA_TSTRING) message = lua_tostring(L_, -1);
    failure = Failure{std::move(message), error_place_.origin()};
  }
  lua_settop(L_, base - 1);
  return failure;
}

}  // namespace graft::rules
