//===- RuntimeTest.cpp - Unit tests of the LLVM-free runtime --------------===//
//
// The runtime ships with compiled models, so it is tested on its own: this
// binary links OpsNNRuntime and GoogleTest only (test/Runtime checks that it
// pulls in neither LLVM nor MLIR).
//
//===----------------------------------------------------------------------===//

#include "opsnn/Runtime/Artifact.h"
#include "opsnn/Runtime/Npy.h"
#include "opsnn/Runtime/StridedBuffer.h"
#include "opsnn/Runtime/TimedCalls.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <unistd.h>

using namespace mlir::opsnn::runtime;

namespace {
std::string makeTempDir() {
  char pattern[] = "/tmp/opsnn-runtime-XXXXXX";
  const char *dir = mkdtemp(pattern);
  return dir ? dir : "/tmp";
}

TEST(NpyTest, RoundTripKeepsDtypeShapeAndBytes) {
  std::string dir = makeTempDir();
  NpyArray array;
  array.descr = "<f4";
  array.shape = {2, 3};
  float values[6] = {1, -2, 3.5f, 0.25f, -1e-3f, 7};
  array.data.assign(reinterpret_cast<char *>(values),
                    reinterpret_cast<char *>(values) + sizeof(values));
  std::string error;
  ASSERT_TRUE(writeNpy(dir + "/a.npy", array, error)) << error;
  NpyArray back;
  ASSERT_TRUE(readNpy(dir + "/a.npy", back, error)) << error;
  EXPECT_EQ(back.descr, "<f4");
  EXPECT_EQ(back.shape, array.shape);
  EXPECT_EQ(back.data, array.data);

  // Rank 0 and rank 1 headers ("()" and "(5,)").
  NpyArray scalar{"|i1", {}, {char(-3)}};
  ASSERT_TRUE(writeNpy(dir + "/s.npy", scalar, error)) << error;
  ASSERT_TRUE(readNpy(dir + "/s.npy", back, error)) << error;
  EXPECT_TRUE(back.shape.empty());
  EXPECT_EQ(back.data, scalar.data);
}

TEST(NpyTest, RejectsWhatItCannotRepresent) {
  std::string dir = makeTempDir();
  std::string error;
  NpyArray array;
  EXPECT_FALSE(readNpy(dir + "/missing.npy", array, error));
  EXPECT_NE(error.find("cannot open"), std::string::npos) << error;

  auto writeRaw = [&](const std::string &name, const std::string &header) {
    std::ofstream file(dir + "/" + name, std::ios::binary);
    file.write("\x93NUMPY\x01\x00", 8);
    uint16_t length = header.size();
    file.write(reinterpret_cast<char *>(&length), 2);
    file << header;
  };
  writeRaw("fortran.npy",
           "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }\n");
  EXPECT_FALSE(readNpy(dir + "/fortran.npy", array, error));
  EXPECT_NE(error.find("Fortran-order"), std::string::npos) << error;
  writeRaw("object.npy",
           "{'descr': '|O', 'fortran_order': False, 'shape': (2,), }\n");
  EXPECT_FALSE(readNpy(dir + "/object.npy", array, error));
  EXPECT_NE(error.find("unsupported dtype"), std::string::npos) << error;
  writeRaw("short.npy",
           "{'descr': '<f8', 'fortran_order': False, 'shape': (4,), }\n");
  EXPECT_FALSE(readNpy(dir + "/short.npy", array, error));
  EXPECT_NE(error.find("the file is shorter"), std::string::npos) << error;
}

TEST(StridedBufferTest, ReadsStridedAndOffsetResults) {
  // A 2x3 view with offset 1 and strides (4, 1) into a 3x4 buffer.
  float storage[12];
  for (int i = 0; i < 12; ++i)
    storage[i] = i;
  int64_t words[3 + 2 * 2] = {reinterpret_cast<int64_t>(storage),
                              reinterpret_cast<int64_t>(storage), 1, 2, 3, 4,
                              1};
  NpyArray array = readDescriptor(words, 2, "<f4");
  ASSERT_EQ(array.shape, (std::vector<int64_t>{2, 3}));
  const float *values = reinterpret_cast<const float *>(array.data.data());
  EXPECT_EQ(std::vector<float>(values, values + 6),
            (std::vector<float>{1, 2, 3, 5, 6, 7}));

  int64_t contiguous[3 + 2 * 3];
  writeContiguousDescriptor(contiguous, storage, {2, 3, 2});
  EXPECT_EQ(contiguous[2], 0);
  EXPECT_EQ(std::vector<int64_t>(contiguous + 3, contiguous + 9),
            (std::vector<int64_t>{2, 3, 2, 6, 2, 1}));
}

TEST(ManifestTest, RoundTripAndErrors) {
  std::string dir = makeTempDir();
  Manifest manifest;
  manifest.entry = "f";
  manifest.library = "model.so";
  manifest.inputs = {{"<f4", {-1, 3}, "tensor<?x3xf32>", "f32"}};
  manifest.outputs = {{"|i1", {4}, "tensor<4xi8>", "i8"}};
  std::string error;
  ASSERT_TRUE(writeManifest(dir, manifest, error)) << error;
  Manifest back;
  ASSERT_TRUE(readManifest(dir, back, error)) << error;
  EXPECT_EQ(back.entry, "f");
  EXPECT_EQ(back.device, "cpu");
  ASSERT_EQ(back.inputs.size(), 1u);
  EXPECT_EQ(back.inputs[0].shape, (std::vector<int64_t>{-1, 3}));
  EXPECT_EQ(back.outputs[0].type, "tensor<4xi8>");

  // Checking inputs against the manifest names the argument.
  NpyArray wrong{"<f8", {2, 3}, std::vector<char>(48)};
  EXPECT_FALSE(checkInputs(back.inputs, {wrong}, "f", error));
  EXPECT_EQ(error, "argument #0 (tensor<?x3xf32>): expected .npy dtype '<f4' "
                   "for element type f32, got '<f8'");

  std::ofstream(dir + "/manifest.json")
      << "{\"format\": \"opsnn-artifact\", \"version\": 1, \"device\": "
         "\"cpu\", \"entry\": \"f\", \"library\": \"m.so\", \"inputs\": "
         "[{\"type\": \"t\", \"element_type\": \"f32\", \"dtype\": \"<f4\", "
         "\"shape\": [1.5]}], \"outputs\": []}";
  EXPECT_FALSE(readManifest(dir, back, error));
  EXPECT_NE(error.find("inputs[0].shape: sizes must be integers >= -1"),
            std::string::npos)
      << error;
  std::ofstream(dir + "/manifest.json") << "{\"format\": \"opsnn-artifact\",\n"
                                           "  \"version\": 2}";
  EXPECT_FALSE(readManifest(dir, back, error));
  EXPECT_NE(error.find("unsupported \"version\""), std::string::npos) << error;
}
// A packed function of signature (tensor<3xf32>) -> tensor<3xf32> that
// returns 2 * x in a buffer it mallocs, counting its calls.
int doubledCalls = 0;
void packedDouble(void **args) {
  ++doubledCalls;
  auto *aligned = *static_cast<float **>(args[1]);
  int64_t offset = *static_cast<int64_t *>(args[2]);
  auto *out = static_cast<float *>(std::malloc(3 * sizeof(float)));
  for (int i = 0; i < 3; ++i)
    out[i] = 2 * aligned[offset + i];
  int64_t *result = static_cast<int64_t *>(args[5]);
  result[0] = result[1] = reinterpret_cast<int64_t>(out);
  result[2] = 0;
  result[3] = 3;
  result[4] = 1;
}

NpyArray makeVector(std::vector<float> values) {
  NpyArray array;
  array.descr = "<f4";
  array.shape = {static_cast<int64_t>(values.size())};
  array.data.resize(values.size() * sizeof(float));
  std::memcpy(array.data.data(), values.data(), array.data.size());
  return array;
}

// Uploads into malloc'ed buffers that it tracks, as the CUDA runtime does
// into managed memory.
std::vector<void *> uploaded;
void *trackedUpload(const void *data, size_t bytes) {
  void *buffer = std::malloc(bytes);
  std::memcpy(buffer, data, bytes);
  uploaded.push_back(buffer);
  return buffer;
}
int released = 0;
void trackedRelease(void *buffer) {
  ++released;
  std::free(buffer);
}

TEST(PackedCallTest, InputsMarshalledOnceServeManyCalls) {
  std::vector<TensorSpec> results = {{"<f4", {3}, "tensor<3xf32>", "f32"}};
  {
    PackedInputs inputs({makeVector({1, 2, 3})}, trackedUpload,
                        trackedRelease);
    ASSERT_TRUE(inputs.isValid());
    ASSERT_EQ(uploaded.size(), 1u);
    EXPECT_TRUE(inputs.isInputBuffer(uploaded[0]));
    for (int call = 0; call < 2; ++call) {
      std::vector<NpyArray> outputs;
      callPacked(packedDouble, inputs, results, &outputs);
      ASSERT_EQ(outputs.size(), 1u);
      float values[3];
      std::memcpy(values, outputs[0].data.data(), sizeof(values));
      EXPECT_EQ(values[0], 2);
      EXPECT_EQ(values[2], 6);
    }
    EXPECT_EQ(released, 0);
  }
  EXPECT_EQ(released, 1);
  // A failed upload leaves the inputs invalid.
  PackedInputs failed({makeVector({1})},
                      [](const void *, size_t) -> void * { return nullptr; },
                      trackedRelease);
  EXPECT_FALSE(failed.isValid());
}

TEST(PackedCallTest, TimedCallsOnTheCpu) {
  std::vector<TensorSpec> results = {{"<f4", {3}, "tensor<3xf32>", "f32"}};
  doubledCalls = 0;
  CallTimes times;
  std::string error;
  ASSERT_TRUE(timePackedCalls(packedDouble, {makeVector({1, 2, 3})}, results,
                              /*warmup=*/2, /*repeat=*/3, /*cuda=*/nullptr,
                              times, error))
      << error;
  EXPECT_EQ(doubledCalls, 5);
  EXPECT_EQ(times.callMs.size(), 3u);
  EXPECT_TRUE(times.kernelMs.empty());
  for (double ms : times.callMs)
    EXPECT_GE(ms, 0);
}
} // namespace
