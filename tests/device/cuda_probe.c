// SPDX-License-Identifier: Apache-2.0
/* cuda-probe: what a CUDA application does first, through the driver API
   alone, so it needs no CUDA toolkit to build (no nvcc, no CUDA headers: the
   few prototypes are declared here) and runs anywhere a driver is.

     cuda-probe lookup    loads libcuda.so.1 by its soname, as an application
                          linked against it does (the ld cache, then the
                          default directories), and prints the file it got
     cuda-probe compute   the same, then cuInit, the devices it sees (name,
                          PCI bus id), and a vector add on the first one:
                          a PTX kernel the driver JIT-compiles, inputs copied
                          in, the sum copied back and checked element by element

   Output is one "key: value" line per fact; any failure is one line naming
   the call and the driver's error name, and exit 1. tests/device/real-gpu.sh
   runs it inside a container that graft hooked. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult; /* CUDA_SUCCESS is 0 */
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st* CUcontext;
typedef struct CUmod_st* CUmodule;
typedef struct CUfunc_st* CUfunction;

/* The kernel: c[i] = a[i] + b[i] for i < n, as LLVM's NVPTX back end emits it
   (llc -march=nvptx64 -mcpu=sm_50), after one of the headers below. PTX for
   sm_50 is JIT-compiled by the driver for any newer GPU; should a driver
   refuse an ISA that old, the kernel is tried again under a newer header. */
static const char* const kPtxHeaders[] = {
    ".version 4.0\n.target sm_50\n.address_size 64\n",
    ".version 7.0\n.target sm_70\n.address_size 64\n",
};
static const char kVectorAddPtx[] =
    ".visible .entry graft_vector_add(\n"
    "\t.param .u64 graft_vector_add_param_0,\n"
    "\t.param .u64 graft_vector_add_param_1,\n"
    "\t.param .u64 graft_vector_add_param_2,\n"
    "\t.param .u32 graft_vector_add_param_3\n"
    ")\n"
    "{\n"
    "\t.reg .pred %p<2>;\n"
    "\t.reg .b32 %r<9>;\n"
    "\t.reg .b64 %rd<8>;\n"
    "\tmov.u32 %r1, %tid.x;\n"
    "\tmov.u32 %r2, %ntid.x;\n"
    "\tld.param.u32 %r3, [graft_vector_add_param_3];\n"
    "\tmov.u32 %r4, %ctaid.x;\n"
    "\tmad.lo.s32 %r5, %r4, %r2, %r1;\n"
    "\tsetp.ge.u32 %p1, %r5, %r3;\n"
    "\t@%p1 bra LBB0_2;\n"
    "\tld.param.u64 %rd4, [graft_vector_add_param_0];\n"
    "\tld.param.u64 %rd5, [graft_vector_add_param_1];\n"
    "\tld.param.u64 %rd6, [graft_vector_add_param_2];\n"
    "\tmul.wide.u32 %rd7, %r5, 4;\n"
    "\tadd.s64 %rd1, %rd4, %rd7;\n"
    "\tadd.s64 %rd2, %rd5, %rd7;\n"
    "\tadd.s64 %rd3, %rd6, %rd7;\n"
    "\tld.global.u32 %r6, [%rd1];\n"
    "\tld.global.u32 %r7, [%rd2];\n"
    "\tadd.s32 %r8, %r6, %r7;\n"
    "\tst.global.u32 [%rd3], %r8;\n"
    "LBB0_2:\n"
    "\tret;\n"
    "}\n";

enum { kElements = 4096, kBlock = 256 };
enum { kJitErrorLogBuffer = 5, kJitErrorLogBufferSizeBytes = 6 }; /* CUjit_option values */

/* The driver entry points used, resolved with dlsym. */
struct Driver {
  CUresult (*init)(unsigned);
  CUresult (*get_error_name)(CUresult, const char**);
  CUresult (*device_get_count)(int*);
  CUresult (*device_get)(CUdevice*, int);
  CUresult (*device_get_name)(char*, int, CUdevice);
  CUresult (*device_get_pci_bus_id)(char*, int, CUdevice);
  CUresult (*primary_ctx_retain)(CUcontext*, CUdevice);
  CUresult (*ctx_set_current)(CUcontext);
  CUresult (*module_load_data_ex)(CUmodule*, const void*, unsigned, int*, void**);
  CUresult (*module_get_function)(CUfunction*, CUmodule, const char*);
  CUresult (*mem_alloc)(CUdeviceptr*, size_t);
  CUresult (*memcpy_htod)(CUdeviceptr, const void*, size_t);
  CUresult (*memcpy_dtoh)(void*, CUdeviceptr, size_t);
  CUresult (*launch_kernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                            unsigned, void*, void**, void**);
  CUresult (*ctx_synchronize)(void);
};

static struct Driver driver;

static void fail(const char* what, const char* why) {
  printf("error: %s: %s\n", what, why);
  exit(1);
}

static void check(CUresult result, const char* call) {
  if (result == 0) return;
  const char* name = NULL;
  if (driver.get_error_name == NULL || driver.get_error_name(result, &name) != 0 || name == NULL)
    name = "unknown CUresult";
  char why[96];
  snprintf(why, sizeof why, "%s (%d)", name, result);
  fail(call, why);
}

static void* resolve(void* library, const char* symbol) {
  void* address = dlsym(library, symbol);
  if (address == NULL) fail(symbol, "not exported by libcuda.so.1");
  return address;
}

/* dlsym's void* to a function pointer: POSIX allows it, ISO C does not say. */
#define RESOLVE(field, symbol) memcpy(&driver.field, &(void*){resolve(library, symbol)}, sizeof(void*))

static void* load_libcuda(void) {
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) fail("dlopen libcuda.so.1", dlerror());
  struct link_map* map = NULL;
  if (dlinfo(library, RTLD_DI_LINKMAP, &map) != 0 || map == NULL) fail("dlinfo", dlerror());
  printf("libcuda.so.1: %s\n", map->l_name);
  return library;
}

static void resolve_driver(void* library) {
  RESOLVE(init, "cuInit");
  RESOLVE(get_error_name, "cuGetErrorName");
  RESOLVE(device_get_count, "cuDeviceGetCount");
  RESOLVE(device_get, "cuDeviceGet");
  RESOLVE(device_get_name, "cuDeviceGetName");
  RESOLVE(device_get_pci_bus_id, "cuDeviceGetPCIBusId");
  RESOLVE(primary_ctx_retain, "cuDevicePrimaryCtxRetain");
  RESOLVE(ctx_set_current, "cuCtxSetCurrent");
  RESOLVE(module_load_data_ex, "cuModuleLoadDataEx");
  RESOLVE(module_get_function, "cuModuleGetFunction");
  RESOLVE(mem_alloc, "cuMemAlloc_v2");
  RESOLVE(memcpy_htod, "cuMemcpyHtoD_v2");
  RESOLVE(memcpy_dtoh, "cuMemcpyDtoH_v2");
  RESOLVE(launch_kernel, "cuLaunchKernel");
  RESOLVE(ctx_synchronize, "cuCtxSynchronize");
}

/* Prints "devices: N" and one "device I: NAME, bus BUSID" line each. */
static int list_devices(void) {
  int count = 0;
  check(driver.device_get_count(&count), "cuDeviceGetCount");
  printf("devices: %d\n", count);
  for (int i = 0; i < count; ++i) {
    CUdevice device;
    char name[128] = "", bus[32] = "";
    check(driver.device_get(&device, i), "cuDeviceGet");
    check(driver.device_get_name(name, sizeof name, device), "cuDeviceGetName");
    check(driver.device_get_pci_bus_id(bus, sizeof bus, device), "cuDeviceGetPCIBusId");
    printf("device %d: %s, bus %s\n", i, name, bus);
  }
  return count;
}

/* The driver's JIT compiles the kernel under each header in turn until one
   loads; each refusal prints its JIT log. */
static CUfunction load_kernel(void) {
  static char log[4096], ptx[sizeof kVectorAddPtx + 128];
  int options[] = {kJitErrorLogBuffer, kJitErrorLogBufferSizeBytes};
  CUmodule module;
  CUresult loaded = -1;
  for (size_t i = 0; loaded != 0 && i < sizeof kPtxHeaders / sizeof kPtxHeaders[0]; ++i) {
    snprintf(ptx, sizeof ptx, "%s%s", kPtxHeaders[i], kVectorAddPtx);
    void* values[] = {log, (void*)(size_t)sizeof log};
    log[0] = '\0';
    loaded = driver.module_load_data_ex(&module, ptx, 2, options, values);
    if (loaded != 0) printf("jit refused PTX %.12s: %d %s\n", kPtxHeaders[i], loaded, log);
  }
  check(loaded, "cuModuleLoadDataEx (the vector add PTX)");
  CUfunction kernel;
  check(driver.module_get_function(&kernel, module, "graft_vector_add"), "cuModuleGetFunction");
  return kernel;
}

/* c = a + b on device 0 with a[i] = i, b[i] = 3i + 7; counts the right sums. */
static void vector_add(void) {
  CUdevice device;
  CUcontext context;
  check(driver.device_get(&device, 0), "cuDeviceGet");
  check(driver.primary_ctx_retain(&context, device), "cuDevicePrimaryCtxRetain");
  check(driver.ctx_set_current(context), "cuCtxSetCurrent");
  CUfunction kernel = load_kernel();
  static unsigned a[kElements], b[kElements], c[kElements];
  for (unsigned i = 0; i < kElements; ++i) a[i] = i, b[i] = 3 * i + 7, c[i] = 0;
  CUdeviceptr da, db, dc;
  check(driver.mem_alloc(&da, sizeof a), "cuMemAlloc");
  check(driver.mem_alloc(&db, sizeof b), "cuMemAlloc");
  check(driver.mem_alloc(&dc, sizeof c), "cuMemAlloc");
  check(driver.memcpy_htod(da, a, sizeof a), "cuMemcpyHtoD");
  check(driver.memcpy_htod(db, b, sizeof b), "cuMemcpyHtoD");
  check(driver.memcpy_htod(dc, c, sizeof c), "cuMemcpyHtoD");
  unsigned n = kElements;
  void* params[] = {&da, &db, &dc, &n};
  check(driver.launch_kernel(kernel, kElements / kBlock, 1, 1, kBlock, 1, 1, 0, NULL, params, NULL),
        "cuLaunchKernel");
  check(driver.ctx_synchronize(), "cuCtxSynchronize");
  check(driver.memcpy_dtoh(c, dc, sizeof c), "cuMemcpyDtoH");
  unsigned right = 0;
  for (unsigned i = 0; i < kElements; ++i) right += c[i] == 4 * i + 7;
  printf("vector add: %u of %u sums right\n", right, (unsigned)kElements);
  if (right != kElements) exit(1);
}

int main(int argc, char** argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  int compute = argc == 2 && strcmp(argv[1], "compute") == 0;
  if (argc != 2 || (!compute && strcmp(argv[1], "lookup") != 0)) {
    fprintf(stderr, "usage: cuda-probe lookup|compute\n");
    return 2;
  }
  void* library = load_libcuda();
  if (!compute) return 0;
  resolve_driver(library);
  check(driver.init(0), "cuInit");
  if (list_devices() < 1) fail("cuDeviceGetCount", "no device");
  vector_add();
  return 0;
}
