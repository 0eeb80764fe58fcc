// A GEMM whose ReLU bufferizes in place into the product's buffer, which is
// returned, and is also cast to f16 for the next layer: the tensor-core
// kernel stores the ReLU's value to that buffer and the cast to its own
// (it used to store the plain product there, the ReLU's value only reaching
// the cast). Run on the CPU (emulated tensor-core kernel) against NumPy;
// the f32 output checks the in-place value.
// RUN: %check --pipeline="one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},opsnn-lower-to-cpu{emulate-tensor-core-matmul=host}" %s
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="target=host emulate-on-cpu" | FileCheck %s
// REF: y = np.maximum(in0.astype(np.float32) @ in1.astype(np.float32), 0)
// REF: out0 = y
// REF: out1 = y.astype(np.float16)
// TOL: 1e-3

// CHECK-LABEL: func.func @relu_in_place
// CHECK: %[[C:.+]] = memref.alloc() {{.*}} : memref<64x96xf32>
// CHECK: %[[D:.+]] = memref.alloc() {{.*}} : memref<64x96xf16>
// CHECK: scf.for
// CHECK-NOT: vector.transfer_write {{.*}} : vector<16x8xf32>, memref<64x96xf32>
// CHECK: %[[RELU:.+]] = arith.maximumf {{.*}} : vector<8xf32>
// CHECK: vector.store %[[RELU]], %[[C]]
// CHECK: arith.truncf %[[RELU]]
// CHECK: vector.store {{.*}}, %[[D]]
// CHECK-NOT: linalg.generic
// CHECK: return %[[C]], %[[D]]

#id = affine_map<(i, j) -> (i, j)>

func.func @relu_in_place(%a: tensor<64x48xf16>, %b: tensor<48x96xf16>) -> (tensor<64x96xf32>, tensor<64x96xf16>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x96xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x48xf16>, tensor<48x96xf16>) outs(%acc : tensor<64x96xf32>) -> tensor<64x96xf32>
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%c : tensor<64x96xf32>) {
  ^bb0(%x: f32):
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  } -> tensor<64x96xf32>
  %e16 = tensor.empty() : tensor<64x96xf16>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<64x96xf32>) outs(%e16 : tensor<64x96xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  } -> tensor<64x96xf16>
  return %r, %h : tensor<64x96xf32>, tensor<64x96xf16>
}
