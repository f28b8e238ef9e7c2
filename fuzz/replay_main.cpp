// SPDX-License-Identifier: Apache-2.0
// The replay driver: a main() for the fuzz targets built without libFuzzer
// (any compiler). Runs LLVMFuzzerTestOneInput once on every file of each
// directory (or file) named on the command line, in name order, so ctest can
// check the corpus in the normal and the sanitizer builds.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;

std::vector<fs::path> inputs_of(const fs::path& where) {
  std::vector<fs::path> files;
  if (fs::is_directory(where)) {
    for (const auto& entry : fs::directory_iterator(where))
      if (entry.is_regular_file()) files.push_back(entry.path());
  } else if (fs::is_regular_file(where)) {
    files.push_back(where);
  }
  std::sort(files.begin(), files.end());
  return files;
}

void run_one(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR_OR_FILE...\n", argv[0]);
    return 2;
  }
  std::size_t count = 0;
  for (int i = 1; i < argc; ++i) {
    for (const auto& file : inputs_of(argv[i])) {
      run_one(file);
      ++count;
    }
  }
  if (count == 0) {
    std::fprintf(stderr, "%s: no inputs found\n", argv[0]);
    return 1;
  }
  std::printf("replayed %zu inputs\n", count);
  return 0;
}
