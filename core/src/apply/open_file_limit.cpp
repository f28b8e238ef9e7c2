// The soft open-file limit raised for applying a plan (open_file_limit.hpp).
#include "apply/open_file_limit.hpp"

#include <sys/resource.h>

namespace graft {

void raise_open_file_limit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= limit.rlim_max) return;
  // Refused only where the hard limit is above fs.nr_open (set before nr_open
  // was lowered); the soft limit stays, and an EMFILE names what failed.
  limit.rlim_cur = limit.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &limit);
}

}  // namespace graft
