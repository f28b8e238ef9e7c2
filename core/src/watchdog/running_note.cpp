// SPDX-License-Identifier: Apache-2.0
#include "watchdog/running_note.hpp"

#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>

#include <nlohmann/json.hpp>

#include "watchdog/iovec_piece.hpp"
#include "graft/base/one_line.hpp"
#include "plan/plan.hpp"

namespace graft {
namespace {

// Lock-free, so reading it in a signal handler is defined (C++17 [support.signal]).
std::atomic<const RunningNote*> g_current{nullptr};
static_assert(std::atomic<const RunningNote*>::is_always_lock_free);

// Printable ASCII other than '"' and '\\' stands for itself inside a JSON
// string, and one_line has already escaped control characters: most notes
// (one per plugin call) need no JSON encoder.
bool stands_for_itself(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) {
    auto byte = static_cast<unsigned char>(c);
    return byte >= 0x20 && byte < 0x7f && c != '"' && c != '\\';
  });
}

std::string json_inside(const std::string& text) {
  std::string quoted = nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return quoted.substr(1, quoted.size() - 2);
}

// writev until everything is out (a pipe may take a long line in pieces).
void write_fully(int fd, iovec* parts, int count) {
  while (count > 0) {
    ssize_t wrote = ::writev(fd, parts, count);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return;
    auto left = static_cast<std::size_t>(wrote);
    while (count > 0 && left >= parts->iov_len) {
      left -= parts->iov_len;
      ++parts, --count;
    }
    if (count > 0) {
      parts->iov_base = static_cast<char*>(parts->iov_base) + left;
      parts->iov_len -= left;
    }
  }
}

}  // namespace

RunningNote::RunningNote(std::string_view what, Blame blame) : RunningNote({what}, blame) {}

RunningNote::RunningNote(std::initializer_list<std::string_view> pieces, Blame blame)
    : blame_(blame), outer_(g_current.load()) {
  // One buffer, and no JSON copy when the line is already valid inside a
  // JSON string: there is a note for every plugin call.
  std::size_t size = outer_ != nullptr ? outer_->text_.size() + 2 : 0;
  for (std::string_view piece : pieces) size += piece.size();
  text_.reserve(size);
  if (outer_ != nullptr) text_.append(outer_->text_).append(": ");
  std::size_t own = text_.size();
  for (std::string_view piece : pieces) append_one_line(text_, piece);
  bool outer_plain = outer_ == nullptr || outer_->json_.empty();
  if (!outer_plain || !stands_for_itself(std::string_view(text_).substr(own))) json_ = json_inside(text_);
  g_current.store(this);  // only once complete: a handler may read it from here on
}

RunningNote::~RunningNote() { g_current.store(outer_); }

const RunningNote* RunningNote::current() { return g_current.load(); }

void RunningNote::write_current_line(std::string_view ending) {
  const RunningNote* note = g_current.load();
  iovec parts[] = {iovec_piece("graft: "), iovec_piece(note ? std::string_view(note->text_) : "command"),
                   iovec_piece(ending), iovec_piece("\n")};
  write_fully(STDERR_FILENO, parts, 4);
}

PluginCallNote::PluginCallNote(const std::string& plugin_path, const char* phase, const Action* action)
    : RunningNote(action == nullptr
                      ? std::initializer_list<std::string_view>{"plugin ", plugin_path, ": ", phase}
                      : std::initializer_list<std::string_view>{"plugin ", plugin_path, ": ",
                                                                to_string(action->kind), " ",
                                                                action->target, ": ", phase},
                  Blame::plugin) {}

}  // namespace graft
