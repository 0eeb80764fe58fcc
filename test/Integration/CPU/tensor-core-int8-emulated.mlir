// The tensor-core kernel's INT8 form (i8 x i8 -> i32, mma.sync m16n8k32),
// run on the CPU (emulate-on-cpu) against NumPy, exactly (integers: TOL 0).
// The matmul's B is stored K x N and is transposed while it is copied into
// its N x K tile (8-bit B fragments come from N x K rows); the FHWC
// convolution's filter already is N x K. 16 i8 elements per copy, BK = 32,
// rows padded by 16. Inputs span the whole i8 range. Target "host" (large
// blocks, 4 warps), "a100" (small blocks, guarded copies, 2 stages) and
// "t4" (copies through registers, stored after the compute).
// The i32 zero fills fold into the accumulators and the consumers are
// fused as on f32 accumulators: a per-column dequantization (sitofp x
// scale -> f32; the reference multiplies in f32 too, so exact) and a
// requantization (x / 256, round half to even, clamp, -> i8) of a
// convolution.
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=host}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100 emulate-tensor-core-stages=2}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=t4}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=host" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul 2>&1 >/dev/null | FileCheck %s
// VALUES: int [-128, 127]
// REF: out0 = in0.astype(np.int64) @ in1.astype(np.int64)
// REF: out1 = ref.conv_nhwc_fhwc(in2, in3)
// REF: out2 = (in4.astype(np.int64) @ in5.astype(np.int64)).astype(np.float32) * in6.astype(np.float32)[None, :]
// REF: out3 = np.clip(np.round(ref.conv_nhwc_fhwc(in7, in8) / 256.0), -128, 127)
// TOL: 0

// Every contraction took the kernel path, every fill and consumer folded
// into it.
// CHECK-LABEL: func.func @int8
// CHECK-DAG: memref.alloc() : memref<{{[0-9]+}}x{{[0-9]+}}x48xi8>
// CHECK-DAG: vector.contract {{.*}} : vector<16x32xi8>, vector<8x32xi8> into vector<16x8xi32>
// CHECK-NOT: linalg.matmul
// CHECK-NOT: linalg.conv_2d
// CHECK-NOT: linalg.fill
// CHECK-NOT: linalg.generic

func.func @int8(%a: tensor<128x96xi8>, %b: tensor<96x64xi8>,
                %x: tensor<2x10x10x32xi8>, %w: tensor<64x3x3x32xi8>,
                %a2: tensor<64x64xi8>, %b2: tensor<64x32xi8>, %scale: tensor<32xf32>,
                %x2: tensor<1x10x10x32xi8>, %w2: tensor<32x3x3x32xi8>)
    -> (tensor<128x64xi32>, tensor<2x8x8x64xi32>, tensor<64x32xf32>, tensor<1x8x8x32xi8>) {
  %zero = arith.constant 0 : i32
  %e0 = tensor.empty() : tensor<128x64xi32>
  %f0 = linalg.fill ins(%zero : i32) outs(%e0 : tensor<128x64xi32>) -> tensor<128x64xi32>
  %mm = linalg.matmul ins(%a, %b : tensor<128x96xi8>, tensor<96x64xi8>) outs(%f0 : tensor<128x64xi32>) -> tensor<128x64xi32>
  %e1 = tensor.empty() : tensor<2x8x8x64xi32>
  %f1 = linalg.fill ins(%zero : i32) outs(%e1 : tensor<2x8x8x64xi32>) -> tensor<2x8x8x64xi32>
  %conv = linalg.conv_2d_nhwc_fhwc {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x10x10x32xi8>, tensor<64x3x3x32xi8>) outs(%f1 : tensor<2x8x8x64xi32>) -> tensor<2x8x8x64xi32>

  // Dequantized GEMM.
  %e2 = tensor.empty() : tensor<64x32xi32>
  %f2 = linalg.fill ins(%zero : i32) outs(%e2 : tensor<64x32xi32>) -> tensor<64x32xi32>
  %mm2 = linalg.matmul ins(%a2, %b2 : tensor<64x64xi8>, tensor<64x32xi8>) outs(%f2 : tensor<64x32xi32>) -> tensor<64x32xi32>
  %ef = tensor.empty() : tensor<64x32xf32>
  %dq = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%mm2, %scale : tensor<64x32xi32>, tensor<32xf32>) outs(%ef : tensor<64x32xf32>) {
  ^bb0(%v: i32, %s: f32, %o: f32):
    %fv = arith.sitofp %v : i32 to f32
    %r = arith.mulf %fv, %s : f32
    linalg.yield %r : f32
  } -> tensor<64x32xf32>

  // Requantized convolution.
  %e3 = tensor.empty() : tensor<1x8x8x32xi32>
  %f3 = linalg.fill ins(%zero : i32) outs(%e3 : tensor<1x8x8x32xi32>) -> tensor<1x8x8x32xi32>
  %conv2 = linalg.conv_2d_nhwc_fhwc {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x2, %w2 : tensor<1x10x10x32xi8>, tensor<32x3x3x32xi8>) outs(%f3 : tensor<1x8x8x32xi32>) -> tensor<1x8x8x32xi32>
  %e4 = tensor.empty() : tensor<1x8x8x32xi8>
  %rq = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv2 : tensor<1x8x8x32xi32>) outs(%e4 : tensor<1x8x8x32xi8>) {
  ^bb0(%v: i32, %o: i8):
    %inv = arith.constant 0.00390625 : f32
    %lo = arith.constant -128.0 : f32
    %hi = arith.constant 127.0 : f32
    %fv = arith.sitofp %v : i32 to f32
    %sc = arith.mulf %fv, %inv : f32
    %rd = math.roundeven %sc : f32
    %c1 = arith.maximumf %rd, %lo : f32
    %c2 = arith.minimumf %c1, %hi : f32
    %q = arith.fptosi %c2 : f32 to i8
    linalg.yield %q : i8
  } -> tensor<1x8x8x32xi8>
  return %mm, %conv, %dq, %rq : tensor<128x64xi32>, tensor<2x8x8x64xi32>, tensor<64x32xf32>, tensor<1x8x8x32xi8>
}
