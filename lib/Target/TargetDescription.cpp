//===- TargetDescription.cpp - Built-in targets and the JSON loader -------===//
//
// The built-in target table (with the datasheet each number comes from, see
// docs/Targets.md) and the loader for user target files.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Target/TargetDescription.h"
#include "opsnn/Support/JSONError.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <mutex>

using namespace mlir::opsnn;

namespace {
constexpr int64_t KiB = 1024;
constexpr int64_t MiB = 1024 * 1024;

TargetDescription makeGPU(const char *name, const char *chip, double bw,
                          double fp32, double tf32, double fp16, double bf16,
                          double fp8, double int8, int64_t l2, int64_t sms,
                          int64_t smemPerSM) {
  TargetDescription t;
  t.name = name;
  t.kind = TargetDescription::Kind::GPU;
  t.chip = chip;
  t.dramBandwidthGBps = bw;
  t.peakFp32Tflops = fp32;
  t.peakTf32Tflops = tf32;
  t.peakFp16Tflops = fp16;
  t.peakBf16Tflops = bf16;
  t.peakFp8Tflops = fp8;
  t.peakInt8Tops = int8;
  t.l2CacheBytes = l2;
  t.sectorBytes = 32;
  t.cacheLineBytes = 128;
  t.smCount = sms;
  t.warpSize = 32;
  t.sharedMemoryPerSMBytes = smemPerSM;
  return t;
}

TargetDescription makeHost() {
  // A conservative 2-core AVX2 machine (the CI runners): 2 cores x 2.5 GHz x
  // 2 FMA x 8 lanes x 2 FLOP = 160 GFLOP/s f32; no native f16/bf16/f8 math.
  TargetDescription t;
  t.name = "host";
  t.kind = TargetDescription::Kind::CPU;
  t.dramBandwidthGBps = 20;
  t.peakFp32Tflops = 0.16;
  t.peakInt8Tops = 0.32;
  t.l2CacheBytes = 2 * MiB;
  t.sectorBytes = 64;
  t.cacheLineBytes = 64;
  t.smCount = 2;
  t.warpSize = 8;
  t.sharedMemoryPerSMBytes = 48 * KiB; // L1d
  return t;
}

const std::vector<TargetDescription> &builtinTable() {
  // Dense (non-sparse) datasheet peaks; sources in docs/Targets.md.
  static const std::vector<TargetDescription> table = {
      //       name    chip     GB/s  fp32  tf32   fp16   bf16   fp8    int8
      makeGPU("t4", "sm_75", 320, 8.1, 0, 65, 0, 0, 130, 4 * MiB, 40, 64 * KiB),
      makeGPU("v100", "sm_70", 900, 15.7, 0, 125, 0, 0, 62.8, 6 * MiB, 80,
              96 * KiB),
      makeGPU("a100", "sm_80", 1555, 19.5, 156, 312, 312, 0, 624, 40 * MiB, 108,
              164 * KiB),
      makeGPU("l4", "sm_89", 300, 30.3, 60, 121, 121, 242.5, 242.5, 48 * MiB,
              58, 100 * KiB),
      makeGPU("h100", "sm_90", 3350, 67, 494.7, 989.4, 989.4, 1978.9, 1978.9,
              50 * MiB, 132, 228 * KiB),
      makeGPU("h200", "sm_90", 4800, 67, 494.7, 989.4, 989.4, 1978.9, 1978.9,
              50 * MiB, 132, 228 * KiB),
      makeHost(),
  };
  return table;
}

struct Registry {
  std::mutex mutex;
  std::vector<TargetDescription> targets;
};

Registry &registry() {
  static Registry instance;
  return instance;
}
} // namespace

llvm::ArrayRef<TargetDescription> mlir::opsnn::getBuiltinTargets() {
  return builtinTable();
}

std::optional<TargetDescription>
mlir::opsnn::lookupTarget(llvm::StringRef name) {
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    for (const TargetDescription &t : r.targets)
      if (t.name == name)
        return t;
  }
  for (const TargetDescription &t : builtinTable())
    if (t.name == name)
      return t;
  return std::nullopt;
}

std::string mlir::opsnn::getKnownTargetNames() {
  std::vector<std::string> names;
  for (const TargetDescription &t : builtinTable())
    names.push_back(t.name);
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const TargetDescription &t : r.targets)
    if (llvm::find(names, t.name) == names.end())
      names.push_back(t.name);
  return llvm::join(names, ", ");
}

void mlir::opsnn::registerTarget(const TargetDescription &target) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (TargetDescription &t : r.targets)
    if (t.name == target.name) {
      t = target;
      return;
    }
  r.targets.push_back(target);
}

//===----------------------------------------------------------------------===//
// JSON target files
//===----------------------------------------------------------------------===//

namespace {
struct NumberField {
  const char *key;
  double TargetDescription::*member;
};
struct IntegerField {
  const char *key;
  int64_t TargetDescription::*member;
};

const NumberField kNumberFields[] = {
    {"dram_bandwidth_gbps", &TargetDescription::dramBandwidthGBps},
    {"peak_fp32_tflops", &TargetDescription::peakFp32Tflops},
    {"peak_tf32_tflops", &TargetDescription::peakTf32Tflops},
    {"peak_fp16_tflops", &TargetDescription::peakFp16Tflops},
    {"peak_bf16_tflops", &TargetDescription::peakBf16Tflops},
    {"peak_fp8_tflops", &TargetDescription::peakFp8Tflops},
    {"peak_int8_tops", &TargetDescription::peakInt8Tops},
};
const IntegerField kIntegerFields[] = {
    {"l2_cache_bytes", &TargetDescription::l2CacheBytes},
    {"sector_bytes", &TargetDescription::sectorBytes},
    {"cache_line_bytes", &TargetDescription::cacheLineBytes},
    {"sm_count", &TargetDescription::smCount},
    {"warp_size", &TargetDescription::warpSize},
    {"shared_memory_per_sm_bytes", &TargetDescription::sharedMemoryPerSMBytes},
};

llvm::Error fieldError(const llvm::Twine &where, const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 where + ": " + message);
}

llvm::Expected<TargetDescription>
parseTargetEntry(const llvm::json::Object &entry, const std::string &where,
                 llvm::ArrayRef<TargetDescription> earlier) {
  std::optional<llvm::StringRef> name = entry.getString("name");
  if (!name || name->empty())
    return fieldError(where, "missing string field \"name\"");
  auto find = [&](llvm::StringRef n) -> std::optional<TargetDescription> {
    for (const TargetDescription &t : earlier)
      if (t.name == n)
        return t;
    return lookupTarget(n);
  };

  TargetDescription target;
  bool fromExisting = false;
  if (std::optional<TargetDescription> existing = find(*name)) {
    target = *existing;
    fromExisting = true;
  }
  if (const llvm::json::Value *base = entry.get("base")) {
    std::optional<llvm::StringRef> baseName = base->getAsString();
    if (!baseName)
      return fieldError(where + ".base", "expected a string");
    std::optional<TargetDescription> baseTarget = find(*baseName);
    if (!baseTarget)
      return fieldError(where + ".base", "unknown target \"" + *baseName +
                                             "\" (known: " +
                                             getKnownTargetNames() + ")");
    target = *baseTarget;
    fromExisting = true;
  }
  target.name = name->str();

  for (const auto &member : entry) {
    llvm::StringRef key = member.first;
    const llvm::json::Value &value = member.second;
    std::string path = where + "." + key.str();
    if (key == "name" || key == "base")
      continue;
    if (key == "kind") {
      std::optional<llvm::StringRef> kind = value.getAsString();
      if (kind == "gpu")
        target.kind = TargetDescription::Kind::GPU;
      else if (kind == "cpu")
        target.kind = TargetDescription::Kind::CPU;
      else
        return fieldError(path, "expected \"gpu\" or \"cpu\"");
      continue;
    }
    if (key == "chip") {
      std::optional<llvm::StringRef> chip = value.getAsString();
      if (!chip)
        return fieldError(path, "expected a string");
      target.chip = chip->str();
      continue;
    }
    auto number = llvm::find_if(
        kNumberFields, [&](const NumberField &f) { return key == f.key; });
    if (number != std::end(kNumberFields)) {
      std::optional<double> v = value.getAsNumber();
      if (!v || *v < 0)
        return fieldError(path, "expected a non-negative number");
      target.*(number->member) = *v;
      continue;
    }
    auto integer = llvm::find_if(
        kIntegerFields, [&](const IntegerField &f) { return key == f.key; });
    if (integer != std::end(kIntegerFields)) {
      std::optional<int64_t> v = value.getAsInteger();
      if (!v || *v <= 0)
        return fieldError(path, "expected a positive integer");
      target.*(integer->member) = *v;
      continue;
    }
    return fieldError(path, "unknown field");
  }

  if (!fromExisting) {
    for (const char *required :
         {"kind", "dram_bandwidth_gbps", "peak_fp32_tflops"})
      if (!entry.get(required))
        return fieldError(where, llvm::Twine("new target \"") + *name +
                                     "\" needs \"" + required +
                                     "\" (or a \"base\" to start from)");
  }
  if (!(target.dramBandwidthGBps > 0) || !(target.peakFp32Tflops > 0))
    return fieldError(where, "dram_bandwidth_gbps and peak_fp32_tflops must "
                             "be positive");
  return target;
}
} // namespace

llvm::Expected<std::vector<TargetDescription>>
mlir::opsnn::parseTargetFile(llvm::StringRef contents) {
  llvm::Expected<llvm::json::Value> root = llvm::json::parse(contents);
  if (!root)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   formatJSONParseError(root.takeError()));
  const llvm::json::Object *object = root->getAsObject();
  if (!object)
    return fieldError("(root)", "expected an object with a \"targets\" array");
  for (const auto &entry : *object)
    if (entry.first != "targets")
      return fieldError("(root)." + entry.first.str(), "unknown field");
  const llvm::json::Array *targets = object->getArray("targets");
  if (!targets)
    return fieldError("(root)", "expected a \"targets\" array");

  std::vector<TargetDescription> result;
  for (auto [index, value] : llvm::enumerate(*targets)) {
    std::string where = llvm::formatv("targets[{0}]", index).str();
    const llvm::json::Object *entry = value.getAsObject();
    if (!entry)
      return fieldError(where, "expected an object");
    llvm::Expected<TargetDescription> target =
        parseTargetEntry(*entry, where, result);
    if (!target)
      return target.takeError();
    result.push_back(std::move(*target));
  }
  return result;
}

llvm::Error mlir::opsnn::loadTargetFile(llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   path + ": error: cannot read target file: " +
                                       buffer.getError().message());
  llvm::Expected<std::vector<TargetDescription>> targets =
      parseTargetFile((*buffer)->getBuffer());
  if (!targets) {
    // Syntax errors carry "line:col: "; place them after the file name the
    // way compilers do, so editors can jump to them.
    std::string message = llvm::toString(targets.takeError());
    llvm::StringRef text(message);
    std::string location = path.str();
    if (!text.empty() && llvm::isDigit(text.front())) {
      auto [lineCol, rest] = text.split(": ");
      location += ":" + lineCol.str();
      text = rest;
    }
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   location + ": error: " + text);
  }
  for (const TargetDescription &target : *targets)
    registerTarget(target);
  return llvm::Error::success();
}
