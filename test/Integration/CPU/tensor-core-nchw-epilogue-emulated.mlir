// MobileNet's tail on the mixed-precision path: ALTE keeps the batch norm
// after a projection convolution in NCHW (a residual add and the global
// pooling read it in f32), and the next convolution reads it converted to
// NHWC f16. The tensor-core kernel of the NHWC convolution takes both
// consumers as its epilogue: the batch norm iterates over (n, c, h, w) and
// reads the product transposed, so its loops are taken in the product's
// order; the conversion reads the NCHW value through the map it was written
// with. The kernel stores both outputs from the fragments: the NCHW f32 one
// element by element, the NHWC f16 one as rows. No other kernel, no f32
// NHWC product. Run on the CPU (emulated tensor-core kernel) against NumPy,
// once on buffers (the pass sees the three ops as they are) and once
// through the pipeline on tensors with A100 tiles.
// RUN: %check --pipeline="one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},opsnn-lower-to-cpu{emulate-tensor-core-matmul=host}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100}" %s
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="target=host emulate-on-cpu" | FileCheck %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=a100" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE
// REF: bn = ref.conv_nhwc_hwcf(in0, in1) * in2 + in3
// REF: out0 = bn.transpose(0, 3, 1, 2)
// REF: out1 = bn.astype(np.float16)
// TOL: 1e-3

// CHECK-LABEL: func.func @nchw_tail
// CHECK-NOT: memref<2x8x8x64xf32>
// CHECK: %[[NCHW:.+]] = memref.alloc() {{.*}} : memref<2x64x8x8xf32>
// CHECK: %[[NHWC:.+]] = memref.alloc() {{.*}} : memref<2x8x8x64xf16>
// CHECK: scf.for
// CHECK: arith.addf {{.*}} : vector<8xf32>
// CHECK: memref.store {{.*}}, %[[NCHW]][{{.*}}] : memref<2x64x8x8xf32>
// CHECK: arith.truncf {{.*}} : vector<8xf32> to vector<8xf16>
// CHECK: vector.store {{.*}} : memref<128x64xf16>, vector<8xf16>
// CHECK-NOT: linalg.generic
// CHECK-NOT: memref<2x8x8x64xf32>
// CHECK: return %[[NCHW]], %[[NHWC]]

// PIPELINE-LABEL: IR Dump After GPUTensorCoreMatmulPass
// PIPELINE-NOT: linalg.
// PIPELINE: memref.store {{.*}} : memref<2x64x8x8xf32>
// PIPELINE: vector.store {{.*}} : memref<128x64xf16>, vector<8xf16>
// PIPELINE-NOT: linalg.
// PIPELINE: return

#nchw = affine_map<(n, c, h, w) -> (n, c, h, w)>
#from_nhwc = affine_map<(n, c, h, w) -> (n, h, w, c)>
#per_channel = affine_map<(n, c, h, w) -> (c)>
#nhwc = affine_map<(n, h, w, c) -> (n, h, w, c)>
#from_nchw = affine_map<(n, h, w, c) -> (n, c, h, w)>

func.func @nchw_tail(%x: tensor<2x10x10x32xf16>, %w: tensor<3x3x32x64xf16>, %scale: tensor<64xf32>,
                     %shift: tensor<64xf32>) -> (tensor<2x64x8x8xf32>, tensor<2x8x8x64xf16>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x8x8x64xf32>
  %a0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x8x8x64xf32>) -> tensor<2x8x8x64xf32>
  %y = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x10x10x32xf16>, tensor<3x3x32x64xf16>) outs(%a0 : tensor<2x8x8x64xf32>) -> tensor<2x8x8x64xf32>
  %e1 = tensor.empty() : tensor<2x64x8x8xf32>
  %bn = linalg.generic {indexing_maps = [#from_nhwc, #per_channel, #per_channel, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %scale, %shift : tensor<2x8x8x64xf32>, tensor<64xf32>, tensor<64xf32>) outs(%e1 : tensor<2x64x8x8xf32>) {
  ^bb0(%v: f32, %s: f32, %b: f32, %o: f32):
    %m = arith.mulf %v, %s : f32
    %a = arith.addf %m, %b : f32
    linalg.yield %a : f32
  } -> tensor<2x64x8x8xf32>
  %e2 = tensor.empty() : tensor<2x8x8x64xf16>
  %next = linalg.generic {indexing_maps = [#from_nchw, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bn : tensor<2x64x8x8xf32>) outs(%e2 : tensor<2x8x8x64xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x8x8x64xf16>
  return %bn, %next : tensor<2x64x8x8xf32>, tensor<2x8x8x64xf16>
}
