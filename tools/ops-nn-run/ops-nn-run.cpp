//===- ops-nn-run.cpp - Compile and run a module on .npy inputs -----------===//
//
// ops-nn-run FILE.mlir|ARTIFACT_DIR --entry=NAME --input=a.npy ...
//     --output-dir=DIR [--pipeline=PASSES] [--emit-artifact=DIR]
//     [--device=cpu|cuda [--chip=sm_80]] [--repeat=N --warmup=M] [--json]
//
// Compiles the entry function for the CPU (the --opsnn-lower-to-cpu pipeline
// unless --pipeline gives a textual one) or, with --device=cuda, for a CUDA
// GPU (--opsnn-lower-to-nvvm, PTX the driver JIT-compiles; kernels run
// through libopsnn_cuda_runtime.so on the CUDA driver), or loads a compiled
// artifact (CPU or CUDA, as its manifest says),
// checks the inputs against its signature, runs it and writes out0.npy,
// out1.npy, ... With --repeat it times N runs after M warm-up runs on
// inputs marshalled once (uploaded to device memory for CUDA) and prints
// median/min/max of the whole call and, for CUDA, of its kernels (CUDA
// events). --emit-artifact writes the compiled function as an
// artifact (model.so + manifest.json) that a later call can load.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Analysis/RangeAnalysis.h"
#include "opsnn/Execution/HostExecutable.h"
#include "opsnn/Execution/IntermediateValues.h"
#include "opsnn/InitAll.h"
#include "opsnn/Runtime/Artifact.h"
#include "opsnn/Runtime/Npy.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <limits>

using namespace mlir;
namespace cl = llvm::cl;
using mlir::opsnn::runtime::NpyArray;

static cl::opt<std::string>
    inputFile(cl::Positional, cl::desc("<input.mlir or artifact folder>"),
              cl::Required);
static cl::opt<std::string> entryName("entry",
                                      cl::desc("Function to run (default: "
                                               "the module's only function)"),
                                      cl::init(""));
static cl::list<std::string> inputArrays("input",
                                         cl::desc("An argument, as a .npy "
                                                  "file (repeat in order)"));
static cl::opt<std::string>
    outputDir("output-dir", cl::desc("Where out0.npy, out1.npy... are written"),
              cl::init(""));
static cl::opt<std::string> pipeline(
    "pipeline",
    cl::desc("Textual pass pipeline lowering the module to the LLVM dialect "
             "(default: the built-in opsnn-lower-to-cpu)"),
    cl::init(""));
static cl::opt<std::string>
    emitArtifact("emit-artifact",
                 cl::desc("Also write the compiled function as an artifact "
                          "(model.so + manifest.json) to this folder"),
                 cl::init(""));
static cl::opt<std::string> device("device", cl::desc("cpu or cuda"),
                                   cl::init("cpu"));
static cl::opt<std::string>
    chip("chip", cl::desc("GPU architecture the PTX targets (--device=cuda)"),
         cl::init("sm_80"));
static cl::opt<unsigned> repeat("repeat", cl::desc("Timed runs"), cl::init(0));
static cl::opt<unsigned> warmup("warmup",
                                cl::desc("Untimed runs before the timed ones"),
                                cl::init(1));
static cl::opt<bool> json("json", cl::desc("Print a JSON summary"),
                          cl::init(false));
static cl::opt<std::string> collectRanges(
    "collect-ranges",
    cl::desc("Also record the range (min, max, smallest non-zero magnitude) "
             "of every argument and intermediate float tensor and write them "
             "to FILE.json, the calibration file of --opsnn-analyze-ranges"),
    cl::init(""));
static cl::opt<bool> appendRanges(
    "append-ranges",
    cl::desc("With --collect-ranges: merge into the ranges FILE.json already "
             "holds (one run per calibration sample)"),
    cl::init(false));
static cl::opt<std::string> dumpValues(
    "dump-values",
    cl::desc("Write every intermediate float tensor to DIR/vN.npy, listed by "
             "value key in DIR/values.json (per-layer accuracy checks)"),
    cl::init(""));

/// --collect-ranges: one calibration sample's ranges, merged into the file
/// with --append-ranges. Non-finite elements widen the range to the largest
/// double (JSON has no infinity): such a tensor never fits a narrow type.
static llvm::Error writeRanges(StringRef entry,
                               const std::vector<NpyArray> &arguments,
                               const std::vector<std::string> &keys,
                               const std::vector<NpyArray> &values) {
  opsnn::CalibrationTable table;
  if (appendRanges && llvm::sys::fs::exists(collectRanges)) {
    llvm::Expected<opsnn::CalibrationTable> existing =
        opsnn::CalibrationTable::read(collectRanges);
    if (!existing)
      return existing.takeError();
    table = std::move(*existing);
  }
  auto add = [&](const std::string &key, const NpyArray &array) {
    int64_t nonFinite = 0;
    std::optional<opsnn::KnownRange> range =
        opsnn::measureRange(array, &nonFinite);
    if (nonFinite > 0) {
      double largest = std::numeric_limits<double>::max();
      opsnn::KnownRange everything{-largest, largest, range ? range->minAbsNonzero : 0,
                                   opsnn::RangeSource::Calibration};
      range = range ? range->unionWith(everything) : everything;
    }
    if (range)
      table.merge(key, *range);
  };
  for (auto [index, array] : llvm::enumerate(arguments))
    add((entry + "/arg#" + llvm::Twine(index)).str(), array);
  for (auto [key, array] : llvm::zip(keys, values))
    add(key, array);
  table.samples += 1;
  return table.write(collectRanges);
}

/// --dump-values: DIR/vN.npy and DIR/values.json, in program order:
/// {"values": [{"key": "main/12:5#0", "file": "v0.npy"}, ...]} (a key seen
/// twice keeps its first value).
static llvm::Error writeValues(const std::vector<std::string> &keys,
                               const std::vector<NpyArray> &values) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dumpValues))
    return llvm::createStringError(ec, "cannot create '" + dumpValues +
                                           "': " + ec.message());
  llvm::json::Array manifest;
  llvm::StringSet<> seen;
  for (auto [index, key, array] : llvm::enumerate(keys, values)) {
    if (!seen.insert(key).second)
      continue;
    std::string name = "v" + std::to_string(index) + ".npy";
    llvm::SmallString<128> path(dumpValues);
    llvm::sys::path::append(path, name);
    std::string error;
    if (!opsnn::runtime::writeNpy(path.str().str(), array, error))
      return llvm::createStringError(llvm::inconvertibleErrorCode(), error);
    manifest.push_back(llvm::json::Object{{"key", key}, {"file", name}});
  }
  // The manifest goes last and whole (a temporary renamed into place, as
  // writeNpy does): a folder without values.json is an interrupted dump.
  llvm::SmallString<128> path(dumpValues);
  llvm::sys::path::append(path, "values.json");
  std::string temporary = (path + ".tmp").str();
  auto failWrite = [&](std::error_code ec) {
    (void)llvm::sys::fs::remove(temporary);
    return llvm::createStringError(ec, "cannot write '" + path + "': " +
                                           ec.message());
  };
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(temporary, ec);
    if (ec)
      return failWrite(ec);
    os << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                     {"values", std::move(manifest)}}))
       << "\n";
    os.close();
    if (os.has_error())
      return failWrite(os.error());
  }
  if (std::error_code ec = llvm::sys::fs::rename(temporary, path))
    return failWrite(ec);
  return llvm::Error::success();
}

static int fail(const llvm::Twine &message) {
  llvm::errs() << "ops-nn-run: error: " << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerAllPasses();
  opsnn::registerAllPasses();
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  cl::ParseCommandLineOptions(argc, argv, "ops-nn compile-and-run driver\n");

  if (device != "cpu" && device != "cuda")
    return fail("--device must be 'cpu' or 'cuda', got '" + device + "'");

  // Inputs first: a missing file is reported before any compile time.
  std::vector<NpyArray> arrays(inputArrays.size());
  for (auto [index, path] : llvm::enumerate(inputArrays)) {
    std::string error;
    if (!opsnn::runtime::readNpy(path, arrays[index], error))
      return fail("input #" + llvm::Twine(index) + ": " + error);
  }

  // The function to run: a loaded artifact or a freshly compiled module.
  std::function<llvm::Error(const std::vector<NpyArray> &,
                            std::vector<NpyArray> *)>
      runOnce;
  std::string deviceName = device;
  std::string entry;
  std::unique_ptr<opsnn::runtime::HostArtifact> artifact;
  std::unique_ptr<opsnn::HostExecutable> executable;
  // With --collect-ranges / --dump-values: the entry's own result count and
  // the keys of the intermediate values returned after them.
  std::vector<std::string> exposedKeys;
  unsigned numResults = 0;
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  opsnn::registerAllDialects(registry);
  MLIRContext context(registry);

  if (llvm::sys::fs::is_directory(inputFile)) {
    if (!pipeline.empty() || !emitArtifact.empty() ||
        !collectRanges.empty() || !dumpValues.empty())
      return fail("--pipeline, --emit-artifact, --collect-ranges and "
                  "--dump-values need an .mlir input, not an artifact");
    std::string error;
    artifact = opsnn::runtime::HostArtifact::load(inputFile, error);
    if (!artifact)
      return fail(error);
    entry = artifact->getManifest().entry;
    if (!entryName.empty() && entryName != entry)
      return fail("the artifact's entry is @" + entry + ", not @" +
                  entryName);
    if (!artifact->checkInputs(arrays, error))
      return fail(error);
    deviceName = artifact->getManifest().device;
    if (!artifact->canRun(error))
      return fail("the artifact is for " + deviceName + ": " + error);
    runOnce = [&](const std::vector<NpyArray> &in,
                  std::vector<NpyArray> *out) -> llvm::Error {
      std::string runError;
      if (!artifact->run(in, out, runError))
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       runError);
      return llvm::Error::success();
    };
  } else {
    context.loadAllAvailableDialects();
    llvm::SourceMgr sourceMgr;
    SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
    OwningOpRef<ModuleOp> module =
        parseSourceFile<ModuleOp>(inputFile, sourceMgr, &context);
    if (!module)
      return 1; // the parser reported where

    entry = entryName;
    if (entry.empty()) {
      SmallVector<func::FuncOp> candidates;
      for (auto func : module->getOps<func::FuncOp>())
        if (!func.isExternal() && func.isPublic())
          candidates.push_back(func);
      if (candidates.size() != 1)
        return fail("the module has " + llvm::Twine(candidates.size()) +
                    " public functions; choose one with --entry=NAME");
      entry = candidates.front().getName().str();
    }

    if (!collectRanges.empty() || !dumpValues.empty()) {
      if (auto func = module->lookupSymbol<func::FuncOp>(entry))
        numResults = func.getNumResults();
      llvm::Expected<std::vector<std::string>> keys =
          opsnn::exposeIntermediateValues(*module, entry);
      if (!keys)
        return fail(llvm::toString(keys.takeError()));
      exposedKeys = std::move(*keys);
    }

    std::function<void(OpPassManager &)> buildPipeline;
    if (!pipeline.empty()) {
      // Accept mlir-opt's anchored form too: builtin.module(...).
      StringRef passes = StringRef(pipeline).trim();
      if (passes.consume_front("builtin.module(") && passes.consume_back(")"))
        passes = passes.trim();
      // Parsed once up front so that a bad pipeline is reported alone,
      // before any compile work (and its follow-on errors).
      std::string pipelineError;
      llvm::raw_string_ostream errors(pipelineError);
      OpPassManager parsed(ModuleOp::getOperationName());
      if (failed(parsePassPipeline(passes, parsed, errors)))
        return fail("--pipeline: " + pipelineError);
      buildPipeline = [passes](OpPassManager &pm) {
        (void)parsePassPipeline(passes, pm, llvm::nulls());
      };
    }
    auto compiled = opsnn::HostExecutable::compile(
        *module, entry, buildPipeline,
        device == "cuda" ? opsnn::Device::CUDA : opsnn::Device::CPU, chip);
    if (!compiled)
      return fail(llvm::toString(compiled.takeError()));
    executable = std::move(*compiled);
    if (!emitArtifact.empty()) {
      if (llvm::Error error = executable->writeArtifact(emitArtifact))
        return fail(llvm::toString(std::move(error)));
      if (!json)
        llvm::outs() << "artifact: " << emitArtifact << "\n";
      if (arrays.empty() && !executable->getInputs().empty())
        return 0; // compile only
    }
    if (llvm::Error error = executable->checkInputs(arrays))
      return fail(llvm::toString(std::move(error)));
    std::string why;
    if (!executable->canRun(why))
      return fail("--device=" + device + ": " + why);
    runOnce = [&](const std::vector<NpyArray> &in,
                  std::vector<NpyArray> *out) -> llvm::Error {
      return executable->run(in, out);
    };
  }

  // Warm-up and timed runs discard their results, on inputs marshalled
  // once (on the device for CUDA); the outputs come from a run of their own.
  opsnn::runtime::CallTimes times;
  if (repeat > 0) {
    if (artifact) {
      std::string error;
      if (!artifact->time(arrays, warmup, repeat, times, error))
        return fail(error);
    } else {
      llvm::Expected<opsnn::runtime::CallTimes> measured =
          executable->time(arrays, warmup, repeat);
      if (!measured)
        return fail(llvm::toString(measured.takeError()));
      times = std::move(*measured);
    }
  }
  std::vector<NpyArray> outputs;
  if (llvm::Error error = runOnce(arrays, &outputs))
    return fail(llvm::toString(std::move(error)));
  if (!exposedKeys.empty() || !collectRanges.empty() || !dumpValues.empty()) {
    std::vector<NpyArray> intermediates(
        std::make_move_iterator(outputs.begin() + numResults),
        std::make_move_iterator(outputs.end()));
    outputs.resize(numResults);
    if (!collectRanges.empty())
      if (llvm::Error error =
              writeRanges(entry, arrays, exposedKeys, intermediates))
        return fail(llvm::toString(std::move(error)));
    if (!dumpValues.empty())
      if (llvm::Error error = writeValues(exposedKeys, intermediates))
        return fail(llvm::toString(std::move(error)));
  }

  llvm::json::Array outputJson;
  if (!outputDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(outputDir))
      return fail("cannot create '" + outputDir + "': " + ec.message());
  }
  for (auto [index, output] : llvm::enumerate(outputs)) {
    std::string path;
    if (!outputDir.empty()) {
      llvm::SmallString<128> file(outputDir);
      llvm::sys::path::append(file, "out" + std::to_string(index) + ".npy");
      path = file.str().str();
      std::string error;
      if (!opsnn::runtime::writeNpy(path, output, error))
        return fail(error);
    }
    llvm::json::Array shape;
    for (int64_t size : output.shape)
      shape.push_back(size);
    outputJson.push_back(llvm::json::Object{
        {"path", path}, {"dtype", output.descr}, {"shape", std::move(shape)}});
    if (!json)
      llvm::outs() << "out" << index << ": " << output.descr << " ["
                   << llvm::join(llvm::map_range(output.shape,
                                                 [](int64_t s) {
                                                   return std::to_string(s);
                                                 }),
                                 "x")
                   << "]" << (path.empty() ? "" : " -> " + path) << "\n";
  }

  llvm::json::Object summary{{"entry", entry},
                             {"device", deviceName},
                             {"outputs", std::move(outputJson)}};
  // Median, min and max of a set of times.
  auto summarize = [](std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    size_t n = ms.size();
    double median = n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
    return std::array<double, 3>{median, ms.front(), ms.back()};
  };
  if (!times.callMs.empty()) {
    auto [median, min, max] = summarize(times.callMs);
    summary["time_ms"] = llvm::json::Object{{"median", median},
                                            {"min", min},
                                            {"max", max},
                                            {"repeat", repeat.getValue()},
                                            {"warmup", warmup.getValue()}};
    if (!json)
      llvm::outs() << llvm::format("time: median %.3f ms, min %.3f ms, max "
                                   "%.3f ms (%u runs after %u warm-up)\n",
                                   median, min, max, repeat.getValue(),
                                   warmup.getValue());
  }
  if (!times.kernelMs.empty()) {
    auto [median, min, max] = summarize(times.kernelMs);
    summary["kernel_time_ms"] = llvm::json::Object{
        {"median", median}, {"min", min}, {"max", max}};
    if (!json)
      llvm::outs() << llvm::format("kernel time: median %.3f ms, min %.3f "
                                   "ms, max %.3f ms (CUDA events)\n",
                                   median, min, max);
  }
  if (json)
    llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(summary)))
                 << "\n";
  return 0;
}
