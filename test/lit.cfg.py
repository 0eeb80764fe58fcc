# -*- Python -*-
# lit configuration of the ops-nn regression tests.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "OPSNN"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.opsnn_obj_root, "test")
config.excludes = ["lib", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py",
                   "Inputs"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
# An ASan/UBSan build: its shared libraries cannot be loaded into stock,
# uninstrumented processes (mlir-opt-22 plugins, the embed example).
if getattr(config, "opsnn_sanitize", ""):
    config.available_features.add("sanitized")
config.substitutions.append(("%opsnn_src_root", config.opsnn_src_root))
config.substitutions.append(("%opsnn_tools_dir", config.opsnn_tools_dir))
if os.path.exists(os.path.join(config.opsnn_tools_dir, "opsnn-runtime-unittests")):
    config.available_features.add("runtime-unittests")

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.opsnn_tools_dir, config.llvm_tools_dir]
# Every ops-nn-opt run verifies the IR after each pass (MlirOptMain's
# default, made explicit so that no test can depend on it being off).
tools = [ToolSubst("ops-nn-opt", extra_args=["--verify-each"]), "ops-nn-run"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# Embedding: the stock mlir-opt loading our plugin, and an out-of-tree build
# of examples/embed against an installed package (%cmake_configure).
config.substitutions.append(("%mlir_opt", os.path.join(config.llvm_tools_dir, "mlir-opt")))
config.substitutions.append((
    "%opsnn_plugin", os.path.join(config.opsnn_obj_root, "lib", "OpsNNPlugin.so")))
config.substitutions.append(("%opsnn_obj_root", config.opsnn_obj_root))
config.substitutions.append(("%cmake_configure", " ".join(
    [config.cmake_command, "-G", '"%s"' % config.cmake_generator,
     "-DCMAKE_MAKE_PROGRAM=" + config.make_program,
     "-DCMAKE_C_COMPILER=" + config.c_compiler,
     "-DCMAKE_CXX_COMPILER=" + config.cxx_compiler] +
    (["-DCMAKE_C_COMPILER_LAUNCHER=" + config.compiler_launcher,
      "-DCMAKE_CXX_COMPILER_LAUNCHER=" + config.compiler_launcher]
     if config.compiler_launcher else []))))
config.substitutions.append(("%cmake", config.cmake_command))

# %python is the interpreter with the pinned requirements (NumPy), not the
# one running lit: it goes first so that it wins over lit's own %python.
config.substitutions.insert(0, ("%python", config.python_executable))
# GPU code is checked without a GPU by assembling its PTX with ptxas.
ptxas = os.environ.get("PTXAS", "/usr/local/cuda/bin/ptxas")
if os.path.exists(ptxas):
    config.available_features.add("ptxas")
config.substitutions.append((
    "%ptxas_check",
    "%s %s" % (config.python_executable,
               os.path.join(config.opsnn_src_root, "scripts", "ptxas_check.py"))))
# Executing on a GPU needs the driver and a device.
if os.path.exists("/dev/nvidia0") or os.path.exists("/dev/nvidiactl"):
    config.available_features.add("cuda-device")
    # FP8 mma.sync: compute capability 8.9 (Ada) and later.
    try:
        import subprocess
        caps = subprocess.run(
            ["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
            capture_output=True, text=True, timeout=30).stdout.split()
        if caps and float(caps[0]) >= 8.9:
            config.available_features.add("cuda-fp8")
        # wgmma (sm_90a PTX): Hopper only.
        if caps and float(caps[0]) == 9.0:
            config.available_features.add("cuda-wgmma")
    except (OSError, ValueError, subprocess.SubprocessError):
        pass

# Executed tests: %check FILE runs test/Integration/check.py on FILE.
config.substitutions.append((
    "%check",
    "%s %s --ops-nn-run=%s" % (
        config.python_executable,
        os.path.join(config.opsnn_src_root, "test", "Integration", "check.py"),
        os.path.join(config.opsnn_tools_dir, "ops-nn-run"))))
