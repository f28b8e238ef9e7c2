// SPDX-License-Identifier: Apache-2.0
// A private mount namespace this process enters for the object's life: made
// with unshare(CLONE_NEWNS) and then rprivate, so nothing mounted in it
// reaches the machine's mount table or a test running in parallel, while
// the containers started meanwhile (runc is a child) see it. The destructor
// returns to the namespace and working directory the process came from; the
// namespace and its mounts go away once no process is left in it.
#pragma once

namespace graft::e2e {

class PrivateNamespace {
 public:
  // Throws std::runtime_error naming the call that failed.
  PrivateNamespace();
  ~PrivateNamespace();
  PrivateNamespace(const PrivateNamespace&) = delete;
  PrivateNamespace& operator=(const PrivateNamespace&) = delete;

 private:
  void leave() noexcept;

  int home_namespace_ = -1;
  int home_cwd_ = -1;
};

// Throws std::runtime_error "<what>: <strerror(errno)>" when rc is not 0.
void check_call(int rc, const char* what);

}  // namespace graft::e2e
