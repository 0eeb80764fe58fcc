// The tensor-core GEMM with a chain of elementwise consumers, run on the CPU
// (emulate-on-cpu, A100 tiles) against NumPy. The function is bufferized
// first, so the pipeline's elementwise fusion on tensors has nothing to
// fuse: the pass itself folds the fill and fuses the three generics (bias,
// tanh GELU, the cast to f16) into the kernel's stores, and neither the f32
// product nor the f32 intermediates are written.
// RUN: %check --pipeline="one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100}" %s
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-lower-to-cpu="emulate-tensor-core-matmul=a100" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul -o /dev/null 2>&1 | FileCheck %s
// REF: x = in0 @ in1 + in2
// REF: out0 = (0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x**3)))).astype(np.float16)
// TOL: 1e-3

// CHECK-LABEL: IR Dump After GPUTensorCoreMatmulPass
// CHECK-NOT: memref<256x256xf32>
// CHECK-NOT: linalg.fill
// CHECK-NOT: linalg.generic
// CHECK: return

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>

func.func @chain(%a: tensor<256x128xf16>, %b: tensor<128x256xf16>, %bias: tensor<256xf32>) -> tensor<256x256xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c = linalg.matmul ins(%a, %b : tensor<256x128xf16>, tensor<128x256xf16>) outs(%acc : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e1 = tensor.empty() : tensor<256x256xf32>
  %biased = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : tensor<256x256xf32>, tensor<256xf32>) outs(%e1 : tensor<256x256xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<256x256xf32>
  %e2 = tensor.empty() : tensor<256x256xf32>
  %gelu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%biased : tensor<256x256xf32>) outs(%e2 : tensor<256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %k0 = arith.constant 0.797884583 : f32
    %k1 = arith.constant 0.044715 : f32
    %x2 = arith.mulf %x, %x : f32
    %x3 = arith.mulf %x2, %x : f32
    %t0 = arith.mulf %x3, %k1 : f32
    %t1 = arith.addf %x, %t0 : f32
    %t2 = arith.mulf %t1, %k0 : f32
    %th = math.tanh %t2 : f32
    %p = arith.addf %th, %one : f32
    %h = arith.mulf %x, %half : f32
    %g = arith.mulf %h, %p : f32
    linalg.yield %g : f32
  } -> tensor<256x256xf32>
  %eh = tensor.empty() : tensor<256x256xf16>
  %half = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gelu : tensor<256x256xf32>) outs(%eh : tensor<256x256xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  } -> tensor<256x256xf16>
  return %half : tensor<256x256xf16>
}
