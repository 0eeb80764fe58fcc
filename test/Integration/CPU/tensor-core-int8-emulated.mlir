// The tensor-core kernel's INT8 form (i8 x i8 -> i32, mma.sync m16n8k32),
// run on the CPU (emulate-on-cpu) against NumPy, exactly (integers: TOL 0).
// The matmul's B is stored K x N and is transposed while it is copied into
// its N x K tile (8-bit B fragments come from N x K rows); the FHWC
// convolution's filter already is N x K. 16 i8 elements per copy, BK = 32,
// rows padded by 16. Inputs span the whole i8 range. Target "host" (large
// blocks, 4 warps) and "a100" (small blocks, guarded copies, 2 stages).
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=host}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100 emulate-tensor-core-stages=2}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=host" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul 2>&1 >/dev/null | FileCheck %s
// VALUES: int [-128, 127]
// REF: out0 = in0.astype(np.int64) @ in1.astype(np.int64)
// REF: out1 = ref.conv_nhwc_fhwc(in2, in3)
// TOL: 0

// CHECK-LABEL: func.func @int8
// CHECK-DAG: memref.alloc() : memref<{{[0-9]+}}x{{[0-9]+}}x48xi8>
// CHECK-DAG: vector.contract {{.*}} : vector<16x32xi8>, vector<8x32xi8> into vector<16x8xi32>
// CHECK-NOT: linalg.matmul
// CHECK-NOT: linalg.conv_2d

func.func @int8(%a: tensor<128x96xi8>, %b: tensor<96x64xi8>,
                %x: tensor<2x10x10x32xi8>, %w: tensor<64x3x3x32xi8>)
    -> (tensor<128x64xi32>, tensor<2x8x8x64xi32>) {
  %zero = arith.constant 0 : i32
  %e0 = tensor.empty() : tensor<128x64xi32>
  %f0 = linalg.fill ins(%zero : i32) outs(%e0 : tensor<128x64xi32>) -> tensor<128x64xi32>
  %mm = linalg.matmul ins(%a, %b : tensor<128x96xi8>, tensor<96x64xi8>) outs(%f0 : tensor<128x64xi32>) -> tensor<128x64xi32>
  %e1 = tensor.empty() : tensor<2x8x8x64xi32>
  %f1 = linalg.fill ins(%zero : i32) outs(%e1 : tensor<2x8x8x64xi32>) -> tensor<2x8x8x64xi32>
  %conv = linalg.conv_2d_nhwc_fhwc {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x10x10x32xi8>, tensor<64x3x3x32xi8>) outs(%f1 : tensor<2x8x8x64xi32>) -> tensor<2x8x8x64xi32>
  return %mm, %conv : tensor<128x64xi32>, tensor<2x8x8x64xi32>
}
