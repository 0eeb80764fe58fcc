// quant casts lowered for the pipelines: per-tensor qcast to integer storage
// rounds to nearest even and clamps in float before converting; the rest
// (dcast, per-axis, storage bounds a float cannot hold exactly) goes through
// upstream's patterns; scast pairs fold.
// RUN: ops-nn-opt %s --opsnn-lower-quant --split-input-file | FileCheck %s

// CHECK-LABEL: func @qcast_i8
// CHECK-NOT: quant.
// CHECK: %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<4x?xi8>
// CHECK: %[[Q:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<4x?xf32>) outs(%[[E]] : tensor<4x?xi8>)
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: i8):
// CHECK: %[[S:.*]] = arith.constant 2.500000e-01 : f32
// CHECK: %[[D:.*]] = arith.divf %[[X]], %[[S]] : f32
// CHECK: %[[R:.*]] = math.roundeven %[[D]] : f32
// CHECK: %[[LO:.*]] = arith.constant -1.270000e+02 : f32
// CHECK: %[[A:.*]] = arith.maxnumf %[[R]], %[[LO]] : f32
// CHECK: %[[HI:.*]] = arith.constant 1.270000e+02 : f32
// CHECK: %[[B:.*]] = arith.minnumf %[[A]], %[[HI]] : f32
// CHECK: %[[I:.*]] = arith.fptosi %[[B]] : f32 to i8
// CHECK: linalg.yield %[[I]] : i8
// CHECK: return %[[Q]] : tensor<4x?xi8>
func.func @qcast_i8(%x: tensor<4x?xf32>) -> tensor<4x?xi8> {
  %q = quant.qcast %x : tensor<4x?xf32> to tensor<4x?x!quant.uniform<i8<-127:127>:f32, 0.25>>
  %i = quant.scast %q : tensor<4x?x!quant.uniform<i8<-127:127>:f32, 0.25>> to tensor<4x?xi8>
  return %i : tensor<4x?xi8>
}

// -----

// Unsigned storage with a zero point; a scalar.
// CHECK-LABEL: func @qcast_u8_scalar
// CHECK: %[[D:.*]] = arith.divf %arg0, %{{.*}} : f32
// CHECK: %[[R:.*]] = math.roundeven %[[D]] : f32
// CHECK: %[[Z:.*]] = arith.constant 1.280000e+02 : f32
// CHECK: %[[A:.*]] = arith.addf %[[R]], %[[Z]] : f32
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.maxnumf
// CHECK: arith.constant 2.550000e+02 : f32
// CHECK: arith.minnumf
// CHECK: %[[I:.*]] = arith.fptoui %{{.*}} : f32 to i8
// CHECK: return %[[I]] : i8
func.func @qcast_u8_scalar(%x: f32) -> i8 {
  %q = quant.qcast %x : f32 to !quant.uniform<u8:f32, 0.5:128>
  %i = quant.scast %q : !quant.uniform<u8:f32, 0.5:128> to i8
  return %i : i8
}

// -----

// Per-axis dequantization: upstream's generic with one scale per channel.
// CHECK-LABEL: func @dcast_per_axis
// CHECK-NOT: quant.
// CHECK: %[[SCALES:.*]] = arith.constant dense<[1.000000e-03, 2.000000e-03, 3.000000e-03]> : tensor<3xf32>
// CHECK: linalg.generic {{.*}} ins(%arg0, %[[SCALES]], %{{.*}} : tensor<4x3xi32>, tensor<3xf32>, tensor<3xi32>)
// CHECK: arith.sitofp %{{.*}} : i32 to f32
// CHECK: arith.mulf
func.func @dcast_per_axis(%acc: tensor<4x3xi32>) -> tensor<4x3xf32> {
  %r = quant.scast %acc : tensor<4x3xi32> to tensor<4x3x!quant.uniform<i32:f32:1, {0.001, 0.002, 0.003}>>
  %d = quant.dcast %r : tensor<4x3x!quant.uniform<i32:f32:1, {0.001, 0.002, 0.003}>> to tensor<4x3xf32>
  return %d : tensor<4x3xf32>
}

// -----

// i32 storage: its bounds are not exact in f32, so upstream's lowering.
// CHECK-LABEL: func @qcast_i32
// CHECK-NOT: math.roundeven
// CHECK: arith.fptosi %{{.*}} : tensor<8xf32> to tensor<8xi32>
func.func @qcast_i32(%x: tensor<8xf32>) -> tensor<8xi32> {
  %q = quant.qcast %x : tensor<8xf32> to tensor<8x!quant.uniform<i32:f32, 0.5>>
  %i = quant.scast %q : tensor<8x!quant.uniform<i32:f32, 0.5>> to tensor<8xi32>
  return %i : tensor<8xi32>
}
