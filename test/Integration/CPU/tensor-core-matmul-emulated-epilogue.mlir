// The tensor-core GEMM's fused epilogues, run on the CPU (emulate-on-cpu,
// A100 tiles: 32x16 blocks, 16x8 warp tiles) against NumPy: the fill folds
// into the accumulators and each elementwise consumer runs on the fragment
// rows before they are stored, with the code the GPU kernel applies to
// each lane's two elements. Four GEMMs, four epilogues: bias + ReLU; an
// f16 residual; erf GELU times a per-row scale plus a transposed operand;
// in place on C (the consumer writes the product's buffer).
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=a100" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul -o /dev/null 2>&1 | FileCheck %s
// REF: out0 = ref.relu(in0 @ in1 + in5)
// REF: out1 = in0 @ in2 + in6
// REF: out2 = ref.gelu_erf(in0 @ in3) * in7[:, None] + in8.T
// REF: out3 = (in0 @ in4) * 0.5
// TOL: 1e-5

// Nothing left but the four emulated kernels: no fill, no generic.
// CHECK-LABEL: IR Dump After GPUTensorCoreMatmulPass
// CHECK-NOT: linalg.fill
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.matmul
// CHECK: return

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
#row = affine_map<(i, j) -> (i)>
#tr = affine_map<(i, j) -> (j, i)>

func.func @epilogues(%a: tensor<256x128xf16>, %b0: tensor<128x256xf16>, %b1: tensor<128x256xf16>,
                     %b2: tensor<128x256xf16>, %b3: tensor<128x256xf16>, %bias: tensor<256xf32>,
                     %res: tensor<256x256xf16>, %scale: tensor<256xf32>, %resT: tensor<256x256xf32>)
    -> (tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>

  %acc0 = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c0 = linalg.matmul ins(%a, %b0 : tensor<256x128xf16>, tensor<128x256xf16>) outs(%acc0 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r0 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c0, %bias : tensor<256x256xf32>, tensor<256xf32>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<256x256xf32>

  %acc1 = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c1 = linalg.matmul ins(%a, %b1 : tensor<256x128xf16>, tensor<128x256xf16>) outs(%acc1 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c1, %res : tensor<256x256xf32>, tensor<256x256xf16>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%x: f32, %y: f16, %o: f32):
    %w = arith.extf %y : f16 to f32
    %s = arith.addf %x, %w : f32
    linalg.yield %s : f32
  } -> tensor<256x256xf32>

  %acc2 = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c2 = linalg.matmul ins(%a, %b2 : tensor<256x128xf16>, tensor<128x256xf16>) outs(%acc2 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r2 = linalg.generic {indexing_maps = [#id, #row, #tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c2, %scale, %resT : tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%x: f32, %s: f32, %t: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %rsqrt2 = arith.constant 0.707106769 : f32
    %u = arith.mulf %x, %rsqrt2 : f32
    %erf = math.erf %u : f32
    %p = arith.addf %erf, %one : f32
    %h = arith.mulf %x, %half : f32
    %g = arith.mulf %h, %p : f32
    %gs = arith.mulf %g, %s : f32
    %y = arith.addf %gs, %t : f32
    linalg.yield %y : f32
  } -> tensor<256x256xf32>

  %acc3 = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c3 = linalg.matmul ins(%a, %b3 : tensor<256x128xf16>, tensor<128x256xf16>) outs(%acc3 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r3 = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%c3 : tensor<256x256xf32>) {
  ^bb0(%x: f32):
    %half = arith.constant 0.5 : f32
    %y = arith.mulf %x, %half : f32
    linalg.yield %y : f32
  } -> tensor<256x256xf32>
  return %r0, %r1, %r2, %r3 : tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>
}
