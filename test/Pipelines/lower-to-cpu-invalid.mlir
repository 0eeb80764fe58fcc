// IR the CPU pipeline cannot lower ends in an error at the op's location
// that names it, exit code 1 and no output file: never an LLVM translation
// failure without a location, nor "success" with the op still in the output.
// RUN: ops-nn-opt %s -split-input-file -verify-diagnostics --opsnn-lower-to-cpu
// RUN: rm -f %t.out
// RUN: not ops-nn-opt %s -split-input-file --opsnn-lower-to-cpu -o %t.out 2>&1 | FileCheck %s
// RUN: not test -e %t.out
// CHECK: lower-to-cpu-invalid.mlir:[[# @LINE + 11]]:10: error: opsnn-lower-to-cpu: 'complex.create' is not supported: no pass of the pipeline lowers it to LLVM

// complex has no lowering in the pipeline (complex.create would go through
// complex-to-llvm in a kernel, never complex.abs).
func.func @complex_abs(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    // expected-error @+1 {{opsnn-lower-to-cpu: 'complex.create' is not supported: no pass of the pipeline lowers it to LLVM}}
    %c = complex.create %a, %a : complex<f32>
    // expected-error @+1 {{opsnn-lower-to-cpu: 'complex.abs' is not supported: no pass of the pipeline lowers it to LLVM}}
    %v = complex.abs %c : complex<f32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// An op on tensors that nothing converts to linalg or bufferizes: the
// bufferization error at its location (the note shows the op).
func.func @tosa_sin(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{op was not bufferized}}
  %r = tosa.sin %x : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
