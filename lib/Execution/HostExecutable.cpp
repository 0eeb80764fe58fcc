//===- HostExecutable.cpp - Compile and run a function on the CPU ---------===//
//
// Lowers with the CPU pipeline, JIT-compiles with MLIR's ExecutionEngine and
// calls the packed wrapper of the entry function. Every tensor crosses the
// boundary as a memref descriptor (opsnn/Runtime/StridedBuffer.h); results
// are allocated by the compiled code and freed here after copying.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Execution/HostExecutable.h"

#include "opsnn/Pipelines/Pipelines.h"
#include "opsnn/Runtime/StridedBuffer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/TargetSelect.h"

#include <cstring>
#include <set>

using namespace mlir;
using namespace mlir::opsnn;
namespace runtime = mlir::opsnn::runtime;
using mlir::opsnn::runtime::NpyArray;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

FailureOr<std::string> mlir::opsnn::getNpyDescr(Type type) {
  if (type.isF16())
    return std::string("<f2");
  if (type.isF32())
    return std::string("<f4");
  if (type.isF64())
    return std::string("<f8");
  if (type.isBF16())
    return std::string("<u2");
  if (isa<Float8E4M3FNType, Float8E5M2Type>(type))
    return std::string("|u1");
  if (auto integer = dyn_cast<IntegerType>(type)) {
    if (integer.isSignless() || integer.isSigned()) {
      switch (integer.getWidth()) {
      case 1:
        return std::string("|b1");
      case 8:
        return std::string("|i1");
      case 16:
        return std::string("<i2");
      case 32:
        return std::string("<i4");
      case 64:
        return std::string("<i8");
      default:
        break;
      }
    }
  }
  return failure();
}

static std::string typeToString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// Reads the signature of `types` into `signatures`; `what` is "argument" or
/// "result" for the error.
static llvm::Error readSignature(TypeRange types, StringRef what,
                                 std::vector<TensorSignature> &signatures) {
  for (auto [index, type] : llvm::enumerate(types)) {
    auto tensorType = dyn_cast<RankedTensorType>(type);
    if (!tensorType)
      return makeError(what + " #" + llvm::Twine(index) + " has type " +
                       typeToString(type) +
                       "; only ranked tensors can be passed in and out");
    FailureOr<std::string> descr = getNpyDescr(tensorType.getElementType());
    if (failed(descr))
      return makeError(what + " #" + llvm::Twine(index) + " (" +
                       typeToString(type) +
                       ") has an element type with no .npy equivalent");
    signatures.push_back({tensorType, *descr});
  }
  return llvm::Error::success();
}

HostExecutable::~HostExecutable() = default;

llvm::Expected<std::unique_ptr<HostExecutable>>
HostExecutable::compile(ModuleOp module, StringRef entry,
                        std::function<void(OpPassManager &)> buildPipeline) {
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func || func.isExternal()) {
    std::string known;
    for (auto candidate : module.getOps<func::FuncOp>())
      if (!candidate.isExternal())
        known += (known.empty() ? "@" : ", @") + candidate.getName().str();
    return makeError("no function @" + entry + " with a body in the module" +
                     (known.empty() ? "" : " (functions: " + known + ")"));
  }
  std::unique_ptr<HostExecutable> executable(new HostExecutable());
  executable->entry = entry.str();
  FunctionType type = func.getFunctionType();
  if (llvm::Error error =
          readSignature(type.getInputs(), "argument", executable->inputs))
    return std::move(error);
  if (llvm::Error error =
          readSignature(type.getResults(), "result", executable->results))
    return std::move(error);

  PassManager pm(module->getContext(), ModuleOp::getOperationName());
  if (buildPipeline)
    buildPipeline(pm);
  else
    buildLowerToCPUPipeline(pm, LowerToCPUOptions());
  if (failed(pm.run(module)))
    return makeError("lowering @" + entry + " for the CPU failed");

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  module->getContext()->appendDialectRegistry(registry);

  // Generate code for this machine's CPU, features included (F16C, AVX...).
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> builder =
      llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      builder->createTargetMachine();
  if (!machine)
    return machine.takeError();

  SmallVector<StringRef> libraries = {
      OPSNN_MLIR_LIBRARY_DIR "/libmlir_c_runner_utils.so",
      OPSNN_MLIR_LIBRARY_DIR "/libmlir_apfloat_wrappers.so"};
  std::function<llvm::Error(llvm::Module *)> optimize =
      makeOptimizingTransformer(/*optLevel=*/3, /*sizeLevel=*/0, machine->get());
  ExecutionEngineOptions options;
  options.transformer = optimize;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  options.sharedLibPaths = libraries;
  llvm::Expected<std::unique_ptr<ExecutionEngine>> engine =
      ExecutionEngine::create(module, options, std::move(*machine));
  if (!engine)
    return engine.takeError();
  executable->engine = std::move(*engine);
  return std::move(executable);
}

llvm::Error HostExecutable::checkInputs(ArrayRef<NpyArray> arrays) const {
  if (arrays.size() != inputs.size())
    return makeError("@" + entry + " takes " + llvm::Twine(inputs.size()) +
                     " argument(s) but " + llvm::Twine(arrays.size()) +
                     " input(s) were given");
  for (auto [index, pair] : llvm::enumerate(llvm::zip(inputs, arrays))) {
    const auto &[signature, array] = pair;
    std::string name = "argument #" + std::to_string(index) + " (" +
                       typeToString(signature.type) + ")";
    if (array.descr != signature.descr)
      return makeError(name + ": expected .npy dtype '" + signature.descr +
                       "' for element type " +
                       typeToString(signature.type.getElementType()) +
                       ", got '" + array.descr + "'");
    ArrayRef<int64_t> expected = signature.type.getShape();
    if (array.shape.size() != expected.size())
      return makeError(name + ": expected rank " +
                       llvm::Twine(expected.size()) + ", got an array of rank " +
                       llvm::Twine(array.shape.size()));
    for (auto [dim, sizes] : llvm::enumerate(llvm::zip(expected, array.shape))) {
      auto [want, got] = sizes;
      if (!ShapedType::isDynamic(want) && want != got)
        return makeError(name + ": dimension " + llvm::Twine(dim) +
                         " has size " + llvm::Twine(got) + ", expected " +
                         llvm::Twine(want));
    }
  }
  return llvm::Error::success();
}

llvm::Error HostExecutable::run(ArrayRef<NpyArray> arrays,
                                std::vector<NpyArray> *outputs) {
  // Inputs: copied into aligned buffers (the compiled code may assume more
  // alignment than a std::vector gives) and described.
  std::vector<runtime::AlignedBuffer> buffers;
  std::vector<std::vector<int64_t>> descriptors;
  buffers.reserve(arrays.size());
  descriptors.reserve(arrays.size());
  SmallVector<void *> packedArgs;
  std::set<void *> inputPointers;
  for (const NpyArray &array : arrays) {
    buffers.emplace_back(array.data.size());
    std::memcpy(buffers.back().data(), array.data.data(), array.data.size());
    inputPointers.insert(buffers.back().data());
    descriptors.emplace_back(runtime::getDescriptorWords(array.shape.size()));
    runtime::writeContiguousDescriptor(descriptors.back().data(),
                                       buffers.back().data(), array.shape);
    for (int64_t &word : descriptors.back())
      packedArgs.push_back(&word);
  }

  // Results: the packed wrapper stores the returned struct of descriptors
  // (8-byte words, no padding) through the last pointer.
  size_t resultWords = 0;
  for (const TensorSignature &result : results)
    resultWords += runtime::getDescriptorWords(result.type.getRank());
  std::vector<int64_t> returned(resultWords, 0);
  if (!results.empty())
    packedArgs.push_back(returned.data());

  if (llvm::Error error = engine->invokePacked(entry, packedArgs))
    return error;

  // Copy out, then free each result buffer once. Buffers the function did
  // not allocate (its inputs, constants marked 0xdeadbeef) are not freed.
  std::set<void *> freed;
  const int64_t *words = returned.data();
  for (const TensorSignature &result : results) {
    int64_t rank = result.type.getRank();
    if (outputs)
      outputs->push_back(runtime::readDescriptor(words, rank, result.descr));
    void *allocated = runtime::getAllocatedPointer(words);
    if (allocated && allocated != reinterpret_cast<void *>(0xdeadbeef) &&
        !inputPointers.count(allocated) && freed.insert(allocated).second)
      std::free(allocated);
    words += runtime::getDescriptorWords(rank);
  }
  return llvm::Error::success();
}
