// RUN: ops-nn-opt %s -split-input-file --opsnn-fingerprint -verify-diagnostics | FileCheck %s

// An op the analysis does not understand is "unknown", with a remark that
// says why, never a guess.
// CHECK-LABEL: func @reshape
// CHECK: tensor.reshape {{.*}}{opsnn.fingerprint = {class = "unknown", reason = "'tensor.reshape' is not a linalg structured op or a known data movement op"}}
func.func @reshape(%a: tensor<64x32xf32>) -> tensor<2048xf32> {
  %shape = arith.constant dense<2048> : tensor<1xindex>
  // expected-remark @+1 {{opsnn-fingerprint: unknown op: 'tensor.reshape' is not a linalg structured op or a known data movement op}}
  %0 = tensor.reshape %a(%shape) : (tensor<64x32xf32>, tensor<1xindex>) -> tensor<2048xf32>
  return %0 : tensor<2048xf32>
}

// -----

// Scalars, constants, empty tensors and terminators are not fingerprinted;
// nor is the inside of a payload.
// CHECK-LABEL: func @irrelevant
// CHECK: arith.constant 1.0{{.*}} : f32
// CHECK-NOT: opsnn.fingerprint
// CHECK: arith.addf %{{.+}}, %{{.+}} : f32
// CHECK-NEXT: tensor.empty() : tensor<4xf32>
// CHECK-NEXT: return
func.func @irrelevant(%x: f32) -> (f32, tensor<4xf32>) {
  %c = arith.constant 1.0 : f32
  %y = arith.addf %x, %c : f32
  %e = tensor.empty() : tensor<4xf32>
  return %y, %e : f32, tensor<4xf32>
}
