// Kernels of the GPU's generic path with a loop inside each thread, widened
// to vector accesses along the contiguous dimension
// (--opsnn-vectorize-parallel-loops): the inner loop carries one
// accumulator per element and reads one vector per step, the operands that
// do not move with the dimension once. Run on the CPU (emulate-gpu-loops:
// the same loops) against NumPy:
// - NHWC global average pooling of f16 into f32 (8 channels per thread,
//   one 16-byte load per pixel), then the division;
// - an NHWC 3x3 depthwise convolution, f32 (4 channels per thread; the
//   filter's taps read as vectors too);
// - NHWC 2x2 max pooling, stride 2, f16 with C = 64 (2 channels: 32
//   vectors must remain per row);
// - a 16x32 @ 32x128 f32 matmul (4 columns of C per thread, B's rows as
//   vectors, A's element once).
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-gpu-loops}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-gpu-loops" --mlir-print-ir-after=opsnn-vectorize-parallel-loops -o /dev/null 2>&1 | FileCheck %s
// REF: out0 = in0.astype(np.float64).mean(axis=(1, 2))
// REF: out1 = ref.depthwise_nhwc_hwc(in1, in2)
// REF: out2 = ref.pool_nhwc(in3, [2, 2], strides=[2, 2])
// REF: out3 = in4 @ in5
// TOL: 1e-5

// CHECK-LABEL: IR Dump After VectorizeParallelLoopsPass
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK: vector.load {{.*}} : memref<2x7x7x256xf16>, vector<8xf16>
// CHECK: vector.store {{.*}} : memref<2x256xf32>, vector<8xf32>
// CHECK: vector.load {{.*}} : memref<2x8x8x128xf32>, vector<4xf32>
// CHECK: vector.load {{.*}} : memref<3x3x128xf32>, vector<4xf32>
// CHECK: vector.load {{.*}} : memref<2x8x8x64xf16>, vector<2xf16>
// CHECK: vector.load {{.*}} : memref<32x128xf32>, vector<4xf32>

func.func @loops(%x: tensor<2x7x7x256xf16>, %d: tensor<2x8x8x128xf32>, %w: tensor<3x3x128xf32>,
                 %p: tensor<2x8x8x64xf16>, %a: tensor<16x32xf32>, %b: tensor<32x128xf32>)
    -> (tensor<2x256xf32>, tensor<2x6x6x128xf32>, tensor<2x4x4x64xf16>, tensor<16x128xf32>) {
  %zero = arith.constant 0.0 : f32
  %pixels = arith.constant 49.0 : f32

  %e0 = tensor.empty() : tensor<2x256xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x256xf32>) -> tensor<2x256xf32>
  %sum = linalg.generic {
      indexing_maps = [affine_map<(n, c, h, w) -> (n, h, w, c)>, affine_map<(n, c, h, w) -> (n, c)>],
      iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<2x7x7x256xf16>) outs(%f0 : tensor<2x256xf32>) {
  ^bb0(%v: f16, %acc: f32):
    %vw = arith.extf %v : f16 to f32
    %s = arith.addf %vw, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x256xf32>
  %em = tensor.empty() : tensor<2x256xf32>
  %mean = linalg.generic {
      indexing_maps = [affine_map<(n, c) -> (n, c)>, affine_map<(n, c) -> (n, c)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<2x256xf32>) outs(%em : tensor<2x256xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.divf %v, %pixels : f32
    linalg.yield %m : f32
  } -> tensor<2x256xf32>

  %e1 = tensor.empty() : tensor<2x6x6x128xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x6x6x128xf32>) -> tensor<2x6x6x128xf32>
  %dw = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%d, %w : tensor<2x8x8x128xf32>, tensor<3x3x128xf32>) outs(%f1 : tensor<2x6x6x128xf32>) -> tensor<2x6x6x128xf32>

  %ninf = arith.constant 0xFC00 : f16
  %e2 = tensor.empty() : tensor<2x4x4x64xf16>
  %f2 = linalg.fill ins(%ninf : f16) outs(%e2 : tensor<2x4x4x64xf16>) -> tensor<2x4x4x64xf16>
  %window = tensor.empty() : tensor<2x2xf16>
  %pool = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %window : tensor<2x8x8x64xf16>, tensor<2x2xf16>) outs(%f2 : tensor<2x4x4x64xf16>) -> tensor<2x4x4x64xf16>

  %e3 = tensor.empty() : tensor<16x128xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<16x128xf32>) -> tensor<16x128xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x128xf32>) outs(%f3 : tensor<16x128xf32>) -> tensor<16x128xf32>
  return %mean, %dw, %pool, %mm : tensor<2x256xf32>, tensor<2x6x6x128xf32>, tensor<2x4x4x64xf16>, tensor<16x128xf32>
}
