// Bad options of --opsnn-lower-to-nvvm are rejected before any IR is
// touched, naming the option; IR the pipeline cannot lower into a kernel is
// reported at the op's source location (kernels lose their locations only
// after this check, for serialization). Exit code 1, no output file.
// RUN: not ops-nn-opt %s --opsnn-lower-to-nvvm="tile-sizes=0" 2>&1 | FileCheck %s --check-prefix=TILE0
// RUN: not ops-nn-opt %s --opsnn-lower-to-nvvm="tile-sizes=-1" 2>&1 | FileCheck %s --check-prefix=TILENEG
// RUN: not ops-nn-opt %s --opsnn-lower-to-nvvm="tile-sizes=1,1,1,1" 2>&1 | FileCheck %s --check-prefix=TILE4
// RUN: not ops-nn-opt %s --opsnn-lower-to-nvvm="tile-sizes=64,32" 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: not ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_99" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not ops-nn-opt %s --opsnn-lower-to-nvvm="chip=banana" 2>&1 | FileCheck %s --check-prefix=BANANA
// RUN: not ops-nn-opt %s --opsnn-lower-to-nvvm="tensor-cores=true chip=sm_70" 2>&1 | FileCheck %s --check-prefix=TC
// RUN: not ops-nn-opt %s --opsnn-lower-to-nvvm="tensor-cores=true tensor-core-tf32=true chip=sm_75" 2>&1 | FileCheck %s --check-prefix=TF32
// RUN: not ops-nn-opt %s --opsnn-lower-to-nvvm="tile-sizes=x" 2>&1 | FileCheck %s --check-prefix=PARSE

// TILE0: error: opsnn-lower-to-nvvm: tile-sizes must be positive, got 0
// TILENEG: error: opsnn-lower-to-nvvm: tile-sizes must be positive, got -1
// TILE4: error: opsnn-lower-to-nvvm: tile-sizes takes one to three sizes (x, y, z), got 4
// THREADS: error: opsnn-lower-to-nvvm: tile-sizes make 2048 threads per block; CUDA allows at most 1024
// CHIP: error: opsnn-lower-to-nvvm: unknown chip 'sm_99' (expected an NVPTX processor such as sm_80)
// BANANA: error: opsnn-lower-to-nvvm: unknown chip 'banana' (expected an NVPTX processor such as sm_80)
// TC: error: opsnn-lower-to-nvvm: tensor-cores needs sm_75 or later (mma.sync m16n8k8), got chip 'sm_70'
// TF32: error: opsnn-lower-to-nvvm: tensor-core-tf32 needs sm_80 or later (Turing has no TF32 mma.sync), got chip 'sm_75'
// PARSE: for the --tile-sizes option: 'x' value invalid for long argument!

// RUN: ops-nn-opt %s -verify-diagnostics --opsnn-lower-to-nvvm
// RUN: rm -f %t.out
// RUN: not ops-nn-opt %s --opsnn-lower-to-nvvm -o %t.out 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: not test -e %t.out
// KERNEL: lower-to-nvvm-invalid.mlir:[[# @LINE + 12]]:10: error: opsnn-lower-to-nvvm: 'complex.abs' is not supported: no pass of the pipeline lowers it to LLVM

// In a kernel, complex.create becomes an LLVM struct (convert-gpu-to-nvvm
// includes complex-to-llvm) but complex.abs has no lowering.
func.func @complex_abs(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = complex.create %a, %a : complex<f32>
    // expected-error @+1 {{opsnn-lower-to-nvvm: 'complex.abs' is not supported: no pass of the pipeline lowers it to LLVM}}
    %v = complex.abs %c : complex<f32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
