// RUN: ops-nn-opt %s --opsnn-eliminate-casts | FileCheck %s

// A widening cast, a pad, a narrowing cast: the pad runs in f16 and both
// casts disappear.
// CHECK-LABEL: func @pad
// CHECK-NOT: precision.cast
// CHECK: %[[P:.*]] = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: tensor.yield %{{.*}} : f16
// CHECK: } : tensor<1x4x8x8xf16> to tensor<1x4x10x10xf16>
// CHECK-NOT: precision.cast
// CHECK: return %[[P]]
func.func @pad(%x: tensor<1x4x8x8xf16>) -> tensor<1x4x10x10xf16> {
  %zero = arith.constant 0.0 : f32
  %w = precision.cast %x : tensor<1x4x8x8xf16> to tensor<1x4x8x8xf32>
  %p = tensor.pad %w low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  %n = precision.cast %p : tensor<1x4x10x10xf32> to tensor<1x4x10x10xf16>
  return %n : tensor<1x4x10x10xf16>
}

// Transposes, layout conversions and reshapes move f16 instead of f32.
// CHECK-LABEL: func @movement
// CHECK: %[[C:.*]] = precision.cast %arg0 : tensor<4x6xf32> to tensor<4x6xf16>
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[C]] : tensor<4x6xf16>) outs(%{{.*}} : tensor<6x4xf16>) permutation = [1, 0]
// CHECK: %[[C2:.*]] = precision.cast %arg1 : tensor<1x2x3x4xf32> to tensor<1x2x3x4xf16>
// CHECK: %[[L:.*]] = layout.convert %[[C2]] from "NCHW" to "NHWC" : tensor<1x2x3x4xf16> -> tensor<1x3x4x2xf16>
// CHECK: %[[C3:.*]] = precision.cast %arg2 : tensor<2x12xf32> to tensor<2x12xf16>
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[C3]] {{\[\[}}0, 1]] : tensor<2x12xf16> into tensor<24xf16>
// CHECK: return %[[T]], %[[L]], %[[R]]
func.func @movement(%a: tensor<4x6xf32>, %b: tensor<1x2x3x4xf32>, %c: tensor<2x12xf32>)
    -> (tensor<6x4xf16>, tensor<1x3x4x2xf16>, tensor<24xf16>) {
  %e = tensor.empty() : tensor<6x4xf32>
  %t = linalg.transpose ins(%a : tensor<4x6xf32>) outs(%e : tensor<6x4xf32>) permutation = [1, 0]
  %t16 = precision.cast %t : tensor<6x4xf32> to tensor<6x4xf16>
  %l = layout.convert %b from "NCHW" to "NHWC" : tensor<1x2x3x4xf32> -> tensor<1x3x4x2xf32>
  %l16 = precision.cast %l : tensor<1x3x4x2xf32> to tensor<1x3x4x2xf16>
  %r = tensor.collapse_shape %c [[0, 1]] : tensor<2x12xf32> into tensor<24xf32>
  %r16 = precision.cast %r : tensor<24xf32> to tensor<24xf16>
  return %t16, %l16, %r16 : tensor<6x4xf16>, tensor<1x3x4x2xf16>, tensor<24xf16>
}

// Widening casts and data movement with other readers stay where they are.
// CHECK-LABEL: func @left_alone
// CHECK: linalg.transpose ins(%arg0 : tensor<4x6xf16>)
// CHECK: precision.cast %{{.*}} : tensor<6x4xf16> to tensor<6x4xf32>
// CHECK: %[[T:.*]] = linalg.transpose ins(%arg1 : tensor<4x6xf32>)
// CHECK: precision.cast %[[T]] : tensor<6x4xf32> to tensor<6x4xf16>
func.func @left_alone(%a: tensor<4x6xf16>, %b: tensor<4x6xf32>) -> (tensor<6x4xf32>, tensor<6x4xf16>, tensor<6x4xf32>) {
  %e = tensor.empty() : tensor<6x4xf16>
  %t = linalg.transpose ins(%a : tensor<4x6xf16>) outs(%e : tensor<6x4xf16>) permutation = [1, 0]
  %w = precision.cast %t : tensor<6x4xf16> to tensor<6x4xf32>
  %e2 = tensor.empty() : tensor<6x4xf32>
  %t2 = linalg.transpose ins(%b : tensor<4x6xf32>) outs(%e2 : tensor<6x4xf32>) permutation = [1, 0]
  %n = precision.cast %t2 : tensor<6x4xf32> to tensor<6x4xf16>
  return %w, %n, %t2 : tensor<6x4xf32>, tensor<6x4xf16>, tensor<6x4xf32>
}

// One value cast for three consumers (the precision policy casts at each
// low-precision op, as for attention's Q, K and V projections of one layer
// norm): one cast; a cast to another type and a cast inside a region stay.
// CHECK-LABEL: func @duplicate_casts
// CHECK: %[[H:.*]] = precision.cast %arg0 : tensor<4x8xf32> to tensor<4x8xf16>
// CHECK-NEXT: %[[B:.*]] = precision.cast %arg0 : tensor<4x8xf32> to tensor<4x8xbf16>
// CHECK-NEXT: scf.if
// CHECK-NEXT: precision.cast %arg0 : tensor<4x8xf32> to tensor<4x8xf16>
// CHECK: return %[[H]], %[[H]], %[[B]], %[[H]], %{{.*}} :
func.func @duplicate_casts(%x: tensor<4x8xf32>, %p: i1) -> (tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xbf16>, tensor<4x8xf16>, tensor<4x8xf16>) {
  %a = precision.cast %x : tensor<4x8xf32> to tensor<4x8xf16>
  %b = precision.cast %x : tensor<4x8xf32> to tensor<4x8xf16>
  %c = precision.cast %x : tensor<4x8xf32> to tensor<4x8xbf16>
  %r = scf.if %p -> tensor<4x8xf16> {
    %i = precision.cast %x : tensor<4x8xf32> to tensor<4x8xf16>
    scf.yield %i : tensor<4x8xf16>
  } else {
    scf.yield %a : tensor<4x8xf16>
  }
  %d = precision.cast %x : tensor<4x8xf32> to tensor<4x8xf16>
  return %a, %b, %c, %d, %r : tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xbf16>, tensor<4x8xf16>, tensor<4x8xf16>
}
