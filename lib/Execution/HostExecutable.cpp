//===- HostExecutable.cpp - Compile and run a function on the CPU ---------===//
//
// Lowers with the CPU pipeline, JIT-compiles with MLIR's ExecutionEngine and
// calls the packed wrapper of the entry function through the runtime's
// calling convention (opsnn/Runtime/PackedCall.h); the same object code,
// linked into a shared library, is the ahead-of-time artifact.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Execution/HostExecutable.h"

#include "opsnn/Pipelines/Pipelines.h"
#include "opsnn/Runtime/Artifact.h"
#include "opsnn/Runtime/CudaDriver.h"
#include "opsnn/Runtime/TimedCalls.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"


using namespace mlir;
using namespace mlir::opsnn;
namespace runtime = mlir::opsnn::runtime;

static void addPackedWrappers(llvm::Module &module);

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

/// Reads the signature of `types` into `specs`; `what` is "argument" or
/// "result" for the error.
static llvm::Error readSignature(TypeRange types, StringRef what,
                                 std::vector<runtime::TensorSpec> &specs) {
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
    runtime::TensorSpec spec;
    spec.descr = *descr;
    for (int64_t size : tensorType.getShape())
      spec.shape.push_back(ShapedType::isDynamic(size) ? -1 : size);
    spec.type = typeToString(tensorType);
    spec.elementType = typeToString(tensorType.getElementType());
    specs.push_back(std::move(spec));
  }
  return llvm::Error::success();
}

HostExecutable::~HostExecutable() = default;

llvm::Expected<std::unique_ptr<HostExecutable>>
HostExecutable::compile(ModuleOp module, StringRef entry,
                        std::function<void(OpPassManager &)> buildPipeline,
                        Device device, StringRef chip) {
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

  executable->device = device;
  bool cuda = device == Device::CUDA;
  // gpu-module-to-binary translates kernels to LLVM IR inside the pipeline;
  // the host module is translated by the ExecutionEngine below.
  DialectRegistry translations;
  registerAllToLLVMIRTranslations(translations);
  module->getContext()->appendDialectRegistry(translations);
  PassManager pm(module->getContext(), ModuleOp::getOperationName());
  if (buildPipeline) {
    buildPipeline(pm);
  } else if (cuda) {
    LowerToNVVMOptions options;
    options.chip = chip.str();
    options.format = GPUBinaryFormat::PTX;
    std::string invalid;
    if (failed(verifyLowerToNVVMOptions(options, [&](const Twine &message) {
          invalid = message.str();
          return failure();
        })))
      return makeError(invalid);
    buildLowerToNVVMPipeline(pm, options);
  } else {
    buildLowerToCPUPipeline(pm, LowerToCPUOptions());
  }
  if (failed(pm.run(module)))
    return makeError("lowering @" + entry + (cuda ? " for CUDA" : " for the CPU") +
                     " failed");

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  // gpu.binary ops become the embedded kernels and their load/unload code.
  registerGPUDialectTranslation(registry);
  gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
  module->getContext()->appendDialectRegistry(registry);

  // Generate code for this machine's CPU, features included (F16C, AVX...).
  // Position-independent, so that the same code links into an artifact.
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> builder =
      llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  builder->setRelocationModel(llvm::Reloc::PIC_);
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      builder->createTargetMachine();
  if (!machine)
    return machine.takeError();

  SmallVector<StringRef> libraries = {
      OPSNN_MLIR_LIBRARY_DIR "/libmlir_c_runner_utils.so",
      OPSNN_MLIR_LIBRARY_DIR "/libmlir_apfloat_wrappers.so"};
  if (cuda)
    libraries.push_back(OPSNN_CUDA_RUNTIME_LIBRARY);
  std::function<llvm::Error(llvm::Module *)> optimize =
      makeOptimizingTransformer(/*optLevel=*/3, /*sizeLevel=*/0, machine->get());
  ExecutionEngineOptions options;
  options.transformer = optimize;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  options.sharedLibPaths = libraries;
  options.enableObjectDump = true; // for writeArtifact
  if (cuda) {
    executable->llvmContext = std::make_unique<llvm::LLVMContext>();
    executable->llvmModule =
        translateModuleToLLVMIR(module, *executable->llvmContext);
    if (!executable->llvmModule)
      return makeError("translating @" + entry + " to LLVM IR failed");
    addPackedWrappers(*executable->llvmModule);
  }
  llvm::Expected<std::unique_ptr<ExecutionEngine>> engine =
      ExecutionEngine::create(module, options, std::move(*machine));
  if (!engine)
    return engine.takeError();
  executable->engine = std::move(*engine);
  // Runs the global constructors: for GPU code they load the kernels
  // (mgpuModuleLoad*), so the driver is needed from here on.
  executable->engine->initialize();
  llvm::Expected<void (*)(void **)> function =
      executable->engine->lookupPacked(entry);
  if (!function)
    return function.takeError();
  executable->function = *function;
  return std::move(executable);
}

llvm::Error HostExecutable::checkInputs(
    const std::vector<runtime::NpyArray> &arrays) const {
  std::string error;
  if (!runtime::checkInputs(inputs, arrays, entry, error))
    return makeError(error);
  return llvm::Error::success();
}

bool HostExecutable::canRun(std::string &why) const {
  if (device != Device::CUDA)
    return true;
  const char *message = nullptr;
  if (opsnnCudaIsAvailable(&message))
    return true;
  why = message;
  return false;
}

llvm::Error
HostExecutable::run(const std::vector<runtime::NpyArray> &arrays,
                    std::vector<runtime::NpyArray> *outputs) const {
  bool cuda = device == Device::CUDA;
  runtime::callPacked(function, arrays, results, outputs,
                      cuda ? opsnnCudaFree : nullptr);
  if (cuda)
    if (std::string error = opsnnCudaTakeError(); !error.empty())
      return makeError(error);
  return llvm::Error::success();
}

llvm::Expected<runtime::CallTimes>
HostExecutable::time(const std::vector<runtime::NpyArray> &arrays,
                     unsigned warmup, unsigned repeat) const {
  runtime::CudaEntryPoints cuda;
  cuda.isAvailable = opsnnCudaIsAvailable;
  cuda.takeError = opsnnCudaTakeError;
  cuda.free = opsnnCudaFree;
  cuda.upload = opsnnCudaUpload;
  cuda.timeKernels = opsnnCudaTimeKernels;
  cuda.takeKernelMilliseconds = opsnnCudaTakeKernelMilliseconds;
  runtime::CallTimes times;
  std::string error;
  if (!runtime::timePackedCalls(function, arrays, results, warmup, repeat,
                                device == Device::CUDA ? &cuda : nullptr,
                                times, error))
    return makeError(error);
  return times;
}

/// Adds `void _mlir_<name>(void **args)` for every function `module`
/// defines: the packed entry points callPacked uses, as the ExecutionEngine
/// adds them to the code it JIT-compiles (args[i] points at argument i, the
/// last pointer at the result).
static void addPackedWrappers(llvm::Module &module) {
  llvm::LLVMContext &context = module.getContext();
  llvm::IRBuilder<> builder(context);
  SmallVector<llvm::Function *> functions;
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && !function.hasLocalLinkage())
      functions.push_back(&function);
  for (llvm::Function *function : functions) {
    auto *type = llvm::FunctionType::get(builder.getVoidTy(),
                                         {builder.getPtrTy()}, false);
    auto *wrapper = llvm::cast<llvm::Function>(
        module.getOrInsertFunction("_mlir_" + function->getName().str(), type)
            .getCallee());
    builder.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", wrapper));
    llvm::Value *packed = wrapper->getArg(0);
    SmallVector<llvm::Value *> args;
    for (auto [index, arg] : llvm::enumerate(function->args())) {
      llvm::Value *slot = builder.CreateGEP(builder.getPtrTy(), packed,
                                            builder.getInt64(index));
      llvm::Value *pointer = builder.CreateLoad(builder.getPtrTy(), slot);
      args.push_back(builder.CreateLoad(arg.getType(), pointer));
    }
    llvm::Value *result = builder.CreateCall(function, args);
    if (!result->getType()->isVoidTy()) {
      llvm::Value *slot = builder.CreateGEP(builder.getPtrTy(), packed,
                                            builder.getInt64(args.size()));
      builder.CreateStore(result,
                          builder.CreateLoad(builder.getPtrTy(), slot));
    }
    builder.CreateRetVoid();
  }
}

/// Optimizes `module` for this machine's CPU and writes it as a
/// position-independent object file.
static llvm::Error emitObject(llvm::Module &module, StringRef path) {
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> builder =
      llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  builder->setRelocationModel(llvm::Reloc::PIC_);
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      builder->createTargetMachine();
  if (!machine)
    return machine.takeError();
  ExecutionEngine::setupTargetTripleAndDataLayout(&module, machine->get());
  if (llvm::Error error = makeOptimizingTransformer(
          /*optLevel=*/3, /*sizeLevel=*/0, machine->get())(&module))
    return error;
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return makeError("cannot write '" + path + "': " + ec.message());
  llvm::legacy::PassManager codegen;
  if ((*machine)->addPassesToEmitFile(codegen, os, nullptr,
                                      llvm::CodeGenFileType::ObjectFile))
    return makeError("this target cannot emit object files");
  codegen.run(module);
  return llvm::Error::success();
}

llvm::Error HostExecutable::writeArtifact(StringRef dir) const {
  // Built in a staging folder next to `dir` and renamed into place once
  // complete: a failure leaves no half-written artifact behind.
  llvm::SmallString<128> staging(dir);
  staging += ".partial";
  (void)llvm::sys::fs::remove_directories(staging);
  if (llvm::Error error = writeArtifactFiles(staging)) {
    (void)llvm::sys::fs::remove_directories(staging);
    return error;
  }
  if (llvm::sys::fs::exists(dir))
    (void)llvm::sys::fs::remove_directories(dir);
  if (std::error_code ec = llvm::sys::fs::rename(staging, dir)) {
    (void)llvm::sys::fs::remove_directories(staging);
    return makeError("cannot move the artifact into '" + dir +
                     "': " + ec.message());
  }
  return llvm::Error::success();
}

llvm::Error HostExecutable::writeArtifactFiles(StringRef dir) const {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return makeError("cannot create '" + dir + "': " + ec.message());
  llvm::SmallString<128> object(dir), library(dir);
  llvm::sys::path::append(object, "model.o");
  llvm::sys::path::append(library, "model.so");
  if (llvmModule) {
    if (llvm::Error error = emitObject(*llvmModule, object))
      return error;
  } else {
    engine->dumpToObjectFile(object);
  }
  if (!llvm::sys::fs::exists(object))
    return makeError("could not write the object file '" + object + "'");

  // Linked by clang (which knows the system's library paths) with lld;
  // model.so finds MLIR's runtime helpers where this compiler found them.
  std::string linker = OPSNN_LLVM_TOOLS_DIR "/clang";
  SmallVector<StringRef> args = {linker,
                                 "-shared",
                                 "-fuse-ld=lld",
                                 "-o",
                                 library,
                                 object,
                                 "-L" OPSNN_MLIR_LIBRARY_DIR,
                                 "-Wl,-rpath," OPSNN_MLIR_LIBRARY_DIR,
                                 // Only what the code calls: the APFloat
                                 // wrappers (FP8 fallbacks) pull in libMLIR.
                                 "-Wl,--as-needed",
                                 "-lmlir_c_runner_utils",
                                 "-lmlir_apfloat_wrappers",
                                 "-lm"};
  bool cuda = device == Device::CUDA;
  llvm::SmallString<128> runtimeCopy(dir);
  llvm::sys::path::append(runtimeCopy, "libopsnn_cuda_runtime.so");
  if (cuda) {
    // The GPU runtime travels with the model: model.so finds it next to
    // itself ($ORIGIN).
    if (std::error_code ec = llvm::sys::fs::copy_file(
            OPSNN_CUDA_RUNTIME_LIBRARY, runtimeCopy))
      return makeError("cannot copy the CUDA runtime into '" + dir +
                       "': " + ec.message());
    args.append({runtimeCopy, "-Wl,-rpath,$ORIGIN"});
  }
  std::string message;
  int status = llvm::sys::ExecuteAndWait(linker, args, /*Env=*/std::nullopt,
                                         /*Redirects=*/{}, /*Seconds=*/0,
                                         /*MemoryLimit=*/0, &message);
  llvm::sys::fs::remove(object);
  if (status != 0)
    return makeError("linking '" + library + "' failed" +
                     (message.empty() ? "" : ": " + message));

  runtime::Manifest manifest;
  manifest.entry = entry;
  manifest.device = cuda ? "cuda" : "cpu";
  manifest.library = "model.so";
  manifest.inputs = inputs;
  manifest.outputs = results;
  std::string error;
  if (!runtime::writeManifest(dir.str(), manifest, error))
    return makeError(error);
  return llvm::Error::success();
}
