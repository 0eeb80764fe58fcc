// RUN: ops-nn-opt %s -split-input-file --opsnn-loss-scaling | FileCheck %s
// Idempotence: a second run with the same options changes nothing.
// RUN: ops-nn-opt %s -split-input-file --opsnn-loss-scaling --opsnn-loss-scaling | FileCheck %s
// RUN: ops-nn-opt %s -split-input-file --opsnn-loss-scaling="init-scale=1024 growth-factor=1.5 backoff-factor=0.25 growth-interval=3" | FileCheck %s --check-prefix=OPTS

// Backward of loss = sum(x @ w + b): dL/dy is the seed broadcast; dw (f16,
// accumulated in f32), db (f32) and dx (f16, dynamic batch) are gradients;
// dy is returned too but is not a gradient (it stays scaled).
// The seed is scaled once at the top, the three gradients are unscaled and
// checked by one op, and the state goes out as 0-d tensors.
// CHECK-LABEL: func @linear_backward
// CHECK-SAME: (%[[X:[^:]+]]: tensor<?x8xf16>, %[[W:[^:]+]]: tensor<8x4xf16>,
// CHECK-SAME: %[[SEED:[^:]+]]: tensor<f32> {opsnn.loss_seed},
// CHECK-SAME: %[[SCALE:[^:]+]]: tensor<f32> {opsnn.loss_scale},
// CHECK-SAME: %[[TRACKER:[^:]+]]: tensor<i32> {opsnn.growth_tracker})
// CHECK-SAME: -> (tensor<8x4xf16> {opsnn.gradient}, tensor<4xf32> {opsnn.gradient}, tensor<?x8xf16> {opsnn.gradient}, tensor<?x4xf32>,
// CHECK-SAME: tensor<f32> {opsnn.loss_scale}, tensor<i32> {opsnn.growth_tracker}, tensor<i1> {opsnn.found_non_finite})
// CHECK-SAME: attributes {opsnn.loss_scaling = {backoff_factor = 5.000000e-01 : f64, growth_factor = 2.000000e+00 : f64, growth_interval = 2000 : i64, init_scale = 6.553600e+04 : f64}}
// CHECK-NEXT: %[[S:.+]] = tensor.extract %[[SCALE]][] : tensor<f32>
// CHECK-NEXT: %[[T:.+]] = tensor.extract %[[TRACKER]][] : tensor<i32>
// CHECK-NEXT: %[[SCALED:.+]] = precision.scale %[[SEED]] by %[[S]] : tensor<f32>
// CHECK-NOT: precision.scale
// CHECK: linalg.generic {{.*}} ins(%[[SCALED]] : tensor<f32>)
// CHECK: %[[DW:.+]] = arith.truncf %{{.+}} : tensor<8x4xf32> to tensor<8x4xf16>
// CHECK: %[[DB:[^ ]+]] = linalg.reduce
// CHECK: %[[DX:.+]] = arith.truncf %{{.+}} : tensor<?x8xf32> to tensor<?x8xf16>
// CHECK: %[[G:[^:]+]]:3, %[[F:.+]] = precision.unscale_and_check %[[DW]], %[[DB]], %[[DX]] by %[[S]] : tensor<8x4xf16>, tensor<4xf32>, tensor<?x8xf16>
// The defaults (GradScaler's) are not printed.
// CHECK-NEXT: %[[NS:.+]], %[[NT:.+]] = precision.update_loss_scale %[[S]], %[[T]], %[[F]]{{$}}
// CHECK-NEXT: %[[NSD:.+]] = tensor.from_elements %[[NS]] : tensor<f32>
// CHECK-NEXT: %[[NTD:.+]] = tensor.from_elements %[[NT]] : tensor<i32>
// CHECK-NEXT: %[[FD:.+]] = tensor.from_elements %[[F]] : tensor<i1>
// CHECK-NEXT: return %[[G]]#0, %[[G]]#1, %[[G]]#2, %[[DY:[^,]+]], %[[NSD]], %[[NTD]], %[[FD]]
// CHECK-NOT: precision.unscale_and_check

// OPTS-LABEL: func @linear_backward
// OPTS-SAME: attributes {opsnn.loss_scaling = {backoff_factor = 2.500000e-01 : f64, growth_factor = 1.500000e+00 : f64, growth_interval = 3 : i64, init_scale = 1.024000e+03 : f64}}
// OPTS: precision.update_loss_scale %{{.+}}, %{{.+}}, %{{.+}} {backoff_factor = 2.500000e-01 : f64, growth_factor = 1.500000e+00 : f64, growth_interval = 3 : i64, init_scale = 1.024000e+03 : f64}
#map_bcast = affine_map<(d0, d1) -> ()>
#map_id = affine_map<(d0, d1) -> (d0, d1)>
func.func @linear_backward(%x: tensor<?x8xf16>, %w: tensor<8x4xf16>,
                           %seed: tensor<f32> {opsnn.loss_seed})
    -> (tensor<8x4xf16> {opsnn.gradient}, tensor<4xf32> {opsnn.gradient},
        tensor<?x8xf16> {opsnn.gradient}, tensor<?x4xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x8xf16>
  %dy_init = tensor.empty(%n) : tensor<?x4xf32>
  %dy = linalg.generic {indexing_maps = [#map_bcast, #map_id],
                        iterator_types = ["parallel", "parallel"]}
      ins(%seed : tensor<f32>) outs(%dy_init : tensor<?x4xf32>) {
  ^bb0(%s: f32, %o: f32):
    linalg.yield %s : f32
  } -> tensor<?x4xf32>
  %dyh = arith.truncf %dy : tensor<?x4xf32> to tensor<?x4xf16>
  // dw = x^T dy
  %xt_init = tensor.empty(%n) : tensor<8x?xf16>
  %xt = linalg.transpose ins(%x : tensor<?x8xf16>) outs(%xt_init : tensor<8x?xf16>) permutation = [1, 0]
  %dw_init = tensor.empty() : tensor<8x4xf32>
  %dw_zero = linalg.fill ins(%zero : f32) outs(%dw_init : tensor<8x4xf32>) -> tensor<8x4xf32>
  %dw32 = linalg.matmul ins(%xt, %dyh : tensor<8x?xf16>, tensor<?x4xf16>) outs(%dw_zero : tensor<8x4xf32>) -> tensor<8x4xf32>
  %dw = arith.truncf %dw32 : tensor<8x4xf32> to tensor<8x4xf16>
  // db = sum over the batch of dy
  %db_init = tensor.empty() : tensor<4xf32>
  %db_zero = linalg.fill ins(%zero : f32) outs(%db_init : tensor<4xf32>) -> tensor<4xf32>
  %db = linalg.reduce ins(%dy : tensor<?x4xf32>) outs(%db_zero : tensor<4xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %sum = arith.addf %in, %acc : f32
      linalg.yield %sum : f32
    }
  // dx = dy w^T
  %wt_init = tensor.empty() : tensor<4x8xf16>
  %wt = linalg.transpose ins(%w : tensor<8x4xf16>) outs(%wt_init : tensor<4x8xf16>) permutation = [1, 0]
  %dx_init = tensor.empty(%n) : tensor<?x8xf32>
  %dx_zero = linalg.fill ins(%zero : f32) outs(%dx_init : tensor<?x8xf32>) -> tensor<?x8xf32>
  %dx32 = linalg.matmul ins(%dyh, %wt : tensor<?x4xf16>, tensor<4x8xf16>) outs(%dx_zero : tensor<?x8xf32>) -> tensor<?x8xf32>
  %dx = arith.truncf %dx32 : tensor<?x8xf32> to tensor<?x8xf16>
  return %dw, %db, %dx, %dy : tensor<8x4xf16>, tensor<4xf32>, tensor<?x8xf16>, tensor<?x4xf32>
}

// -----

// Gradient results need not come first, and a seed of the loss's own shape
// (here an f16 vector) works the same. A gradient that is the seed itself
// is unscaled back to it.
// CHECK-LABEL: func @seed_is_gradient
// CHECK-SAME: (%[[SEED:[^:]+]]: tensor<2xf16> {opsnn.loss_seed}, %[[Y:[^:]+]]: tensor<2xf32>, %[[SCALE:[^:]+]]: tensor<f32> {opsnn.loss_scale}, %{{.+}}: tensor<i32> {opsnn.growth_tracker})
// CHECK: %[[S:.+]] = tensor.extract %[[SCALE]][] : tensor<f32>
// CHECK: %[[SCALED:.+]] = precision.scale %[[SEED]] by %[[S]] : tensor<2xf16>
// CHECK: %[[G:.+]], %{{.+}} = precision.unscale_and_check %[[SCALED]] by %[[S]] : tensor<2xf16>
// CHECK: return %[[Y]], %[[G]],
func.func @seed_is_gradient(%seed: tensor<2xf16> {opsnn.loss_seed}, %y: tensor<2xf32>)
    -> (tensor<2xf32>, tensor<2xf16> {opsnn.gradient}) {
  return %y, %seed : tensor<2xf32>, tensor<2xf16>
}

// -----

// Every return of a multi-block function unscales its own gradients with the
// scale read once in the entry block.
// CHECK-LABEL: func @two_returns
// CHECK: %[[S:.+]] = tensor.extract
// CHECK: %[[T:.+]] = tensor.extract
// CHECK: %[[SCALED:.+]] = precision.scale
// CHECK: cf.cond_br
// CHECK: precision.unscale_and_check %[[SCALED]] by %[[S]]
// CHECK: precision.update_loss_scale %[[S]], %[[T]]
// CHECK: return
// CHECK: precision.unscale_and_check %{{.+}} by %[[S]]
// CHECK: precision.update_loss_scale %[[S]], %[[T]]
// CHECK: return
func.func @two_returns(%seed: tensor<4xf32> {opsnn.loss_seed}, %c: i1)
    -> (tensor<4xf32> {opsnn.gradient}) {
  cf.cond_br %c, ^a, ^b
^a:
  return %seed : tensor<4xf32>
^b:
  %d = arith.addf %seed, %seed : tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

// A function with neither a seed nor gradients is not a training step.
// CHECK-LABEL: func @inference
// CHECK-SAME: (%{{.+}}: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NOT: precision.
// CHECK-NOT: opsnn.loss_scaling
// CHECK: return
func.func @inference(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
