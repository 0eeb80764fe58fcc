// RUN: ops-nn-opt %s -split-input-file | FileCheck %s
// RUN: ops-nn-opt %s -split-input-file | ops-nn-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func @casts
// CHECK: precision.cast %{{.*}} : tensor<4x8xf32> to tensor<4x8xf16>
// CHECK: precision.cast %{{.*}} : tensor<?x8xf32> to tensor<?x8xbf16>
// CHECK: precision.cast %{{.*}} : f32 to f8E4M3FN
// CHECK: precision.cast %{{.*}} : tensor<4xf8E5M2> to tensor<4xf32>
func.func @casts(%a: tensor<4x8xf32>, %b: tensor<?x8xf32>, %c: f32, %d: tensor<4xf8E5M2>)
    -> (tensor<4x8xf16>, tensor<?x8xbf16>, f8E4M3FN, tensor<4xf32>) {
  %0 = precision.cast %a : tensor<4x8xf32> to tensor<4x8xf16>
  %1 = precision.cast %b : tensor<?x8xf32> to tensor<?x8xbf16>
  %2 = precision.cast %c : f32 to f8E4M3FN
  %3 = precision.cast %d : tensor<4xf8E5M2> to tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4x8xf16>, tensor<?x8xbf16>, f8E4M3FN, tensor<4xf32>
}

// -----

// CHECK-LABEL: func @loss_scaling
// CHECK: %[[L:.+]] = precision.scale %{{.*}} by %{{.*}} : tensor<f32>
// CHECK: %{{.+}}:2, %[[F:.+]] = precision.unscale_and_check %{{.*}}, %{{.*}} by %{{.*}} : tensor<64x32xf16>, tensor<64xf32>
// CHECK: precision.update_loss_scale %{{.*}}, %{{.*}}, %[[F]]{{$}}
// CHECK: precision.update_loss_scale %{{.*}}, %{{.*}}, %[[F]] {backoff_factor = 2.500000e-01 : f64, growth_factor = 4.000000e+00 : f64, growth_interval = 100 : i64, init_scale = 1.024000e+03 : f64}
func.func @loss_scaling(%loss: tensor<f32>, %dw: tensor<64x32xf16>, %db: tensor<64xf32>, %s: f32, %t: i32)
    -> (tensor<f32>, tensor<64x32xf16>, tensor<64xf32>, f32, i32, f32, i32) {
  %l = precision.scale %loss by %s : tensor<f32>
  %g:3 = precision.unscale_and_check %dw, %db by %s : tensor<64x32xf16>, tensor<64xf32>
  %s1, %t1 = precision.update_loss_scale %s, %t, %g#2
  %s2, %t2 = precision.update_loss_scale %s, %t, %g#2 {init_scale = 1024.0, growth_factor = 4.0, backoff_factor = 0.25, growth_interval = 100}
  return %l, %g#0, %g#1, %s1, %t1, %s2, %t2 : tensor<f32>, tensor<64x32xf16>, tensor<64xf32>, f32, i32, f32, i32
}

// -----

// CHECK-LABEL: func @attributes
// CHECK-SAME: precision.a = #precision.assignment<storage = f16, compute = f16, accumulate = f32>
// CHECK-SAME: precision.q = #precision.assignment<storage = i8, compute = i8, accumulate = i32>
// CHECK-SAME: precision.r = #precision.range<min = -3.500000e+00, max = 7.000000e+04, min_abs_nonzero = 1.000000e-09>
func.func @attributes() attributes {
    precision.a = #precision.assignment<storage = f16, compute = f16, accumulate = f32>,
    precision.q = #precision.assignment<storage = i8, compute = i8, accumulate = i32>,
    precision.r = #precision.range<min = -3.5, max = 70000.0, min_abs_nonzero = 1.0e-9>} {
  return
}
