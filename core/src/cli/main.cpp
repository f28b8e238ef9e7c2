// graft command line: parses arguments and turns every Error into one line on stderr.
#include <cstdio>

#include "graft/build_config.hpp"

int main() {
  std::printf("graft %s\n", graft::build::version);
  return 0;
}
