// When the tensor-core kernel absorbs a softmax after its GEMM, and when
// it leaves it apart (--opsnn-gpu-tensor-core-matmul, after bufferization;
// see tensor-core-softmax.mlir for the kernel itself). Fused: the softmax
// right after the product. Apart: its input is read elsewhere, it runs
// over another dimension than the GEMM's columns, the rows are wider than
// any block (512), an INT8 GEMM (i32 accumulators), an f16 softmax.
// RUN: ops-nn-opt %s --split-input-file --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @softmax_first
// CHECK: gpu.launch
// CHECK: nvgpu.mma.sync
// CHECK: math.exp
// CHECK: arith.truncf
// CHECK: gpu.terminator
// CHECK-NOT: linalg.
// CHECK: return
func.func @softmax_first(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>) -> tensor<64x64xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.matmul ins(%a, %b : tensor<64x32xf16>, tensor<32x64xf16>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x64xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<64x64xf32>) outs(%e2 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e3 = tensor.empty() : tensor<64x64xf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<64x64xf32>) outs(%e3 : tensor<64x64xf16>) {
  ^bb0(%x: f32, %o: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<64x64xf16>
  return %h : tensor<64x64xf16>
}

// -----

// The scaled scores are returned too: the kernel would have to store them.
// CHECK-LABEL: func.func @input_read_elsewhere
// CHECK: gpu.launch
// CHECK: gpu.terminator
// CHECK: linalg.softmax dimension(1)
func.func @input_read_elsewhere(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.matmul ins(%a, %b : tensor<64x32xf16>, tensor<32x64xf16>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<64x64xf32>) outs(%e1 : tensor<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = arith.mulf %v, %scale : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x64xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<64x64xf32>) outs(%e2 : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %x, %p : tensor<64x64xf32>, tensor<64x64xf32>
}

// -----

// Over the GEMM's rows: every block would need all of them.
// CHECK-LABEL: func.func @other_dimension
// CHECK: gpu.launch
// CHECK: gpu.terminator
// CHECK: linalg.softmax dimension(0)
func.func @other_dimension(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.matmul ins(%a, %b : tensor<64x32xf16>, tensor<32x64xf16>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x64xf32>
  %p = linalg.softmax dimension(0) ins(%s : tensor<64x64xf32>) outs(%e2 : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %p : tensor<64x64xf32>
}

// -----

// Rows of 512: no block is that wide (rule 9 of the tile heuristic).
// CHECK-LABEL: func.func @wide_rows
// CHECK: gpu.launch
// CHECK: gpu.terminator
// CHECK: linalg.softmax dimension(1)
func.func @wide_rows(%a: tensor<64x32xf16>, %b: tensor<32x512xf16>) -> tensor<64x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x512xf32>) -> tensor<64x512xf32>
  %s = linalg.matmul ins(%a, %b : tensor<64x32xf16>, tensor<32x512xf16>) outs(%f : tensor<64x512xf32>) -> tensor<64x512xf32>
  %e2 = tensor.empty() : tensor<64x512xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<64x512xf32>) outs(%e2 : tensor<64x512xf32>) -> tensor<64x512xf32>
  return %p : tensor<64x512xf32>
}

// -----

// INT8 (i32 accumulators, dequantized by a stage): the row tile is f32.
// CHECK-LABEL: func.func @int8
// CHECK: gpu.launch
// CHECK: nvgpu.mma.sync
// CHECK: gpu.terminator
// CHECK: linalg.softmax dimension(1)
func.func @int8(%a: tensor<64x32xi8>, %b: tensor<32x64xi8>) -> tensor<64x64xf32> {
  %zero = arith.constant 0 : i32
  %scale = arith.constant 0.01 : f32
  %e = tensor.empty() : tensor<64x64xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<64x64xi32>) -> tensor<64x64xi32>
  %s = linalg.matmul ins(%a, %b : tensor<64x32xi8>, tensor<32x64xi8>) outs(%f : tensor<64x64xi32>) -> tensor<64x64xi32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<64x64xi32>) outs(%e1 : tensor<64x64xf32>) {
  ^bb0(%v: i32, %o: f32):
    %c = arith.sitofp %v : i32 to f32
    %y = arith.mulf %c, %scale : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x64xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<64x64xf32>) outs(%e2 : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %p : tensor<64x64xf32>
}

// -----

// A softmax in f16: the row tile and its sums are f32.
// CHECK-LABEL: func.func @f16_softmax
// CHECK: gpu.launch
// CHECK: gpu.terminator
// CHECK: linalg.softmax dimension(1)
func.func @f16_softmax(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>) -> tensor<64x64xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.matmul ins(%a, %b : tensor<64x32xf16>, tensor<32x64xf16>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf16>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<64x64xf32>) outs(%e1 : tensor<64x64xf16>) {
  ^bb0(%v: f32, %o: f16):
    %y = arith.truncf %v : f32 to f16
    linalg.yield %y : f16
  } -> tensor<64x64xf16>
  %e2 = tensor.empty() : tensor<64x64xf16>
  %p = linalg.softmax dimension(1) ins(%x : tensor<64x64xf16>) outs(%e2 : tensor<64x64xf16>) -> tensor<64x64xf16>
  return %p : tensor<64x64xf16>
}
