// SPDX-License-Identifier: Apache-2.0
/* A stand-in libcuda.so.1 for cuda-probe's own test (cuda-probe-test.sh): the
   fifteen driver API calls the probe makes, with the signatures of the CUDA
   driver API, on host memory. Its "GPU" runs the one kernel it knows, the
   vector add, on the CPU, after checking that the module's PTX defines it;
   device pointers are host addresses. It refuses PTX whose header holds the
   text in GRAFT_MOCK_CUDA_REFUSE (when set), as a driver would refuse an
   unsupported ISA (CUDA_ERROR_UNSUPPORTED_PTX_VERSION, 222), and writes a
   line to the JIT error log it was given. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
struct CUfunc_st { int vector_add; };
static struct CUfunc_st vector_add = {1};
static int initialized;
enum { kUnsupportedPtx = 222, kNotInitialized = 3, kInvalidValue = 1, kNotFound = 500 };

CUresult cuInit(unsigned flags) { initialized = flags == 0; return flags == 0 ? 0 : kInvalidValue; }
CUresult cuGetErrorName(CUresult error, const char** name) {
  *name = error == kUnsupportedPtx ? "CUDA_ERROR_UNSUPPORTED_PTX_VERSION" : "CUDA_ERROR_MOCK";
  return 0;
}
CUresult cuDeviceGetCount(int* count) { *count = 1; return initialized ? 0 : kNotInitialized; }
CUresult cuDeviceGet(int* device, int ordinal) { *device = ordinal; return ordinal == 0 ? 0 : kInvalidValue; }
CUresult cuDeviceGetName(char* name, int length, int device) {
  snprintf(name, (size_t)length, "Mock GPU %d", device);
  return 0;
}
CUresult cuDeviceGetPCIBusId(char* bus, int length, int device) {
  snprintf(bus, (size_t)length, "0000:3B:00.%d", device);
  return 0;
}
CUresult cuDevicePrimaryCtxRetain(void** context, int device) { *context = &vector_add; return device == 0 ? 0 : kInvalidValue; }
CUresult cuCtxSetCurrent(void* context) { return context ? 0 : kInvalidValue; }
CUresult cuCtxSynchronize(void) { return 0; }

CUresult cuModuleLoadDataEx(void** module, const void* image, unsigned count, int* options, void** values) {
  const char* ptx = image;
  const char* refused = getenv("GRAFT_MOCK_CUDA_REFUSE");
  const char* entry = strstr(ptx, ".entry graft_vector_add(");
  if (refused && *refused && strstr(ptx, refused) && (!entry || strstr(ptx, refused) < entry)) {
    for (unsigned i = 0; i + 1 < count; ++i)
      if (options[i] == 5 && options[i + 1] == 6)
        snprintf(values[i], (size_t)(uintptr_t)values[i + 1], "ptxas fatal: mock refuses %s", refused);
    return kUnsupportedPtx;
  }
  if (!entry || !strstr(ptx, ".address_size 64")) return kInvalidValue;
  *module = &vector_add;
  return 0;
}
CUresult cuModuleGetFunction(struct CUfunc_st** function, void* module, const char* name) {
  if (!module || strcmp(name, "graft_vector_add") != 0) return kNotFound;
  *function = &vector_add;
  return 0;
}
CUresult cuMemAlloc_v2(CUdeviceptr* pointer, size_t size) {
  void* memory = calloc(1, size);
  *pointer = (CUdeviceptr)(uintptr_t)memory;
  return memory ? 0 : 2;
}
CUresult cuMemcpyHtoD_v2(CUdeviceptr to, const void* from, size_t size) {
  memcpy((void*)(uintptr_t)to, from, size);
  return 0;
}
CUresult cuMemcpyDtoH_v2(void* to, CUdeviceptr from, size_t size) {
  memcpy(to, (const void*)(uintptr_t)from, size);
  return 0;
}
/* Every thread of the grid, as the kernel would run it: c[i] = a[i] + b[i] for i < n. */
CUresult cuLaunchKernel(struct CUfunc_st* function, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned shared, void* stream, void** params, void** extra) {
  if (function != &vector_add || gy != 1 || gz != 1 || by != 1 || bz != 1 || shared || stream || extra)
    return kInvalidValue;
  const unsigned* a = (const unsigned*)(uintptr_t)*(CUdeviceptr*)params[0];
  const unsigned* b = (const unsigned*)(uintptr_t)*(CUdeviceptr*)params[1];
  unsigned* c = (unsigned*)(uintptr_t)*(CUdeviceptr*)params[2];
  unsigned n = *(unsigned*)params[3];
  for (unsigned i = 0; i < gx * bx; ++i)
    if (i < n) c[i] = a[i] + b[i];
  return 0;
}
