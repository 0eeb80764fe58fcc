// RUN: ops-nn-opt %s -split-input-file --opsnn-lower-precision | FileCheck %s

// Narrowing is arith.truncf (round to nearest even), widening arith.extf.
// CHECK-LABEL: func @casts
// CHECK-SAME: (%[[X:.+]]: tensor<?x8xf32>, %[[H:.+]]: f16)
// CHECK: %[[T:.+]] = arith.truncf %[[X]] : tensor<?x8xf32> to tensor<?x8xf16>
// CHECK: %[[E:.+]] = arith.extf %[[H]] : f16 to f32
// CHECK: return %[[T]], %[[E]]
func.func @casts(%x: tensor<?x8xf32>, %h: f16) -> (tensor<?x8xf16>, f32) {
  %0 = precision.cast %x : tensor<?x8xf32> to tensor<?x8xf16>
  %1 = precision.cast %h : f16 to f32
  return %0, %1 : tensor<?x8xf16>, f32
}

// -----

// Between two 16-bit types the cast goes through f32 (exact), so the value is
// rounded once.
// CHECK-LABEL: func @same_width
// CHECK-SAME: (%[[X:.+]]: tensor<4xf16>)
// CHECK: %[[W:.+]] = arith.extf %[[X]] : tensor<4xf16> to tensor<4xf32>
// CHECK: %[[B:.+]] = arith.truncf %[[W]] : tensor<4xf32> to tensor<4xbf16>
// CHECK: return %[[B]]
func.func @same_width(%x: tensor<4xf16>) -> tensor<4xbf16> {
  %0 = precision.cast %x : tensor<4xf16> to tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// FP8 storage: the same arith casts (emulated later where the CPU lacks FP8).
// CHECK-LABEL: func @fp8
// CHECK: arith.truncf %{{.+}} : tensor<16xf32> to tensor<16xf8E4M3FN>
// CHECK: arith.extf %{{.+}} : tensor<16xf8E5M2> to tensor<16xf32>
func.func @fp8(%x: tensor<16xf32>, %y: tensor<16xf8E5M2>) -> (tensor<16xf8E4M3FN>, tensor<16xf32>) {
  %0 = precision.cast %x : tensor<16xf32> to tensor<16xf8E4M3FN>
  %1 = precision.cast %y : tensor<16xf8E5M2> to tensor<16xf32>
  return %0, %1 : tensor<16xf8E4M3FN>, tensor<16xf32>
}

// -----

// Scaling an f16 loss: widen, multiply by the broadcast scale in f32, narrow.
// CHECK-LABEL: func @scale_f16
// CHECK-SAME: (%[[L:.+]]: tensor<8xf16>, %[[S:.+]]: f32)
// CHECK: %[[W:.+]] = arith.extf %[[L]] : tensor<8xf16> to tensor<8xf32>
// CHECK: %[[E:.+]] = tensor.empty() : tensor<8xf32>
// CHECK: %[[B:.+]] = linalg.fill ins(%[[S]] : f32) outs(%[[E]] : tensor<8xf32>)
// CHECK: %[[M:.+]] = arith.mulf %[[W]], %[[B]] : tensor<8xf32>
// CHECK: %[[R:.+]] = arith.truncf %[[M]] : tensor<8xf32> to tensor<8xf16>
// CHECK: return %[[R]]
func.func @scale_f16(%l: tensor<8xf16>, %s: f32) -> tensor<8xf16> {
  %0 = precision.scale %l by %s : tensor<8xf16>
  return %0 : tensor<8xf16>
}

// -----

// A scalar f32 loss is a single multiply.
// CHECK-LABEL: func @scale_scalar
// CHECK-SAME: (%[[L:.+]]: f32, %[[S:.+]]: f32)
// CHECK-NEXT: %[[M:.+]] = arith.mulf %[[L]], %[[S]] : f32
// CHECK-NEXT: return %[[M]]
func.func @scale_scalar(%l: f32, %s: f32) -> f32 {
  %0 = precision.scale %l by %s : f32
  return %0 : f32
}

// -----

// Unscale: multiply by 1/scale; the flag is "not (all finite)", reduced over
// every tensor with a linalg.reduce of `x - x == 0` (finite), which unlike
// math.isfinite also lowers on n-D vectors.
// CHECK-LABEL: func @unscale_and_check
// CHECK-SAME: (%[[G:.+]]: tensor<4x?xf16>, %[[B:.+]]: tensor<f32>, %[[S:.+]]: f32)
// CHECK: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[INV:.+]] = arith.divf %[[ONE]], %[[S]] : f32
// CHECK: %[[TRUE:.+]] = arith.constant true
// CHECK: %[[GW:.+]] = arith.extf %[[G]] : tensor<4x?xf16> to tensor<4x?xf32>
// CHECK: linalg.fill ins(%[[INV]] : f32)
// CHECK: %[[GM:.+]] = arith.mulf %[[GW]]
// CHECK: %[[GU:.+]] = arith.truncf %[[GM]] : tensor<4x?xf32> to tensor<4x?xf16>
// CHECK: %[[RED:.+]] = linalg.reduce ins(%[[G]] : tensor<4x?xf16>) outs(%{{.+}} : tensor<i1>) dimensions = [0, 1]
// CHECK: %[[D:.+]] = arith.subf %[[IN:.+]], %[[IN]] : f16
// CHECK: arith.cmpf oeq, %[[D]]
// CHECK: arith.andi
// CHECK: %[[ALLG:.+]] = tensor.extract %[[RED]][] : tensor<i1>
// CHECK: %[[F1:.+]] = arith.andi %[[TRUE]], %[[ALLG]] : i1
// CHECK: %[[BU:.+]] = arith.mulf %[[B]], %{{.+}} : tensor<f32>
// CHECK: %[[BE:.+]] = tensor.extract %[[B]][] : tensor<f32>
// CHECK: %[[BD:.+]] = arith.subf %[[BE]], %[[BE]] : f32
// CHECK: %[[ALLB:.+]] = arith.cmpf oeq, %[[BD]]
// CHECK: %[[F2:.+]] = arith.andi %[[F1]], %[[ALLB]] : i1
// CHECK: %[[FOUND:.+]] = arith.xori %[[F2]], %{{.+}} : i1
// CHECK: return %[[GU]], %[[BU]], %[[FOUND]]
func.func @unscale_and_check(%g: tensor<4x?xf16>, %b: tensor<f32>, %s: f32) -> (tensor<4x?xf16>, tensor<f32>, i1) {
  %r:3 = precision.unscale_and_check %g, %b by %s : tensor<4x?xf16>, tensor<f32>
  return %r#0, %r#1, %r#2 : tensor<4x?xf16>, tensor<f32>, i1
}

// -----

// GradScaler update as scalar arithmetic: scale * factor in f64, stored as
// f32; growth only at the interval and only when finite.
// CHECK-LABEL: func @update_loss_scale
// CHECK-SAME: (%[[S:.+]]: f32, %[[T:.+]]: i32, %[[F:.+]]: i1)
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK: %[[ONE:.+]] = arith.constant 1 : i32
// CHECK: %[[INTERVAL:.+]] = arith.constant 100 : i32
// CHECK: %[[SUCC:.+]] = arith.addi %[[T]], %[[ONE]] : i32
// CHECK: %[[GROW:.+]] = arith.cmpi eq, %[[SUCC]], %[[INTERVAL]] : i32
// CHECK: %[[SW:.+]] = arith.extf %[[S]] : f32 to f64
// CHECK: %[[GROWTH:.+]] = arith.constant 3.000000e+00 : f64
// CHECK: %[[GP:.+]] = arith.mulf %[[SW]], %[[GROWTH]] : f64
// CHECK: %[[GROWN:.+]] = arith.truncf %[[GP]] : f64 to f32
// CHECK: %[[FIN:.+]] = math.isfinite %[[GROWN]] : f32
// CHECK: %[[USE:.+]] = arith.andi %[[GROW]], %[[FIN]] : i1
// CHECK: %[[KEEP:.+]] = arith.select %[[USE]], %[[GROWN]], %[[S]] : f32
// CHECK: %[[BACKOFF:.+]] = arith.constant 2.500000e-01 : f64
// CHECK: %[[BP:.+]] = arith.mulf %{{.+}}, %[[BACKOFF]] : f64
// CHECK: %[[BACK:.+]] = arith.truncf %[[BP]] : f64 to f32
// CHECK: %[[NEWS:.+]] = arith.select %[[F]], %[[BACK]], %[[KEEP]] : f32
// CHECK: %[[TT:.+]] = arith.select %[[GROW]], %[[ZERO]], %[[SUCC]] : i32
// CHECK: %[[NEWT:.+]] = arith.select %[[F]], %[[ZERO]], %[[TT]] : i32
// CHECK: return %[[NEWS]], %[[NEWT]]
func.func @update_loss_scale(%s: f32, %t: i32, %f: i1) -> (f32, i32) {
  %ns, %nt = precision.update_loss_scale %s, %t, %f {growth_factor = 3.0, backoff_factor = 0.25, growth_interval = 100}
  return %ns, %nt : f32, i32
}
