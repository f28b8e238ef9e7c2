// SPDX-License-Identifier: Apache-2.0
/* A static hello: the cheapest whole process that still does I/O, the floor
 * for `graft plan` and `graft hook` as processes (bench/process.sh). */
#include <unistd.h>

int main(void) { return write(1, "hello\n", 6) == 6 ? 0 : 1; }
