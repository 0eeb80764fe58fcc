// RUN: ops-nn-opt %s -split-input-file -verify-diagnostics --opsnn-loss-scaling
// Bad option values, reported on the first training function:
// RUN: not ops-nn-opt %S/loss-scaling.mlir --opsnn-loss-scaling="growth-factor=1.0" 2>&1 | FileCheck %s --check-prefix=GROWTH
// RUN: not ops-nn-opt %S/loss-scaling.mlir --opsnn-loss-scaling="backoff-factor=1.0" 2>&1 | FileCheck %s --check-prefix=BACKOFF
// RUN: not ops-nn-opt %S/loss-scaling.mlir --opsnn-loss-scaling="backoff-factor=0" 2>&1 | FileCheck %s --check-prefix=BACKOFF0
// RUN: not ops-nn-opt %S/loss-scaling.mlir --opsnn-loss-scaling="growth-interval=0" 2>&1 | FileCheck %s --check-prefix=INTERVAL
// RUN: not ops-nn-opt %S/loss-scaling.mlir --opsnn-loss-scaling="growth-interval=4294967296" 2>&1 | FileCheck %s --check-prefix=INTERVAL32
// RUN: not ops-nn-opt %S/loss-scaling.mlir --opsnn-loss-scaling="init-scale=-1" 2>&1 | FileCheck %s --check-prefix=INIT
// RUN: not ops-nn-opt %S/loss-scaling.mlir --opsnn-loss-scaling="init-scale=1e39" 2>&1 | FileCheck %s --check-prefix=INIT39
// GROWTH: loss-scaling.mlir:{{[0-9]+}}:1: error: opsnn-loss-scaling: growth-factor must be greater than 1, got 1.0
// BACKOFF: error: opsnn-loss-scaling: backoff-factor must be in (0, 1), got 1.0
// BACKOFF0: error: opsnn-loss-scaling: backoff-factor must be in (0, 1), got 0.0
// INTERVAL: error: opsnn-loss-scaling: growth-interval must be in [1, 2^31 - 1] (the tracker is i32), got 0
// INTERVAL32: error: opsnn-loss-scaling: growth-interval must be in [1, 2^31 - 1] (the tracker is i32), got 4294967296
// INIT: error: opsnn-loss-scaling: init-scale must be positive and finite in f32, got -1.0
// INIT39: error: opsnn-loss-scaling: init-scale must be positive and finite in f32, got 1.0{{0*}}e+39

// Gradients without a seed: nothing to scale.
// expected-error @+1 {{opsnn-loss-scaling: has 1 'opsnn.gradient' result(s) but no argument marked 'opsnn.loss_seed'}}
func.func @no_seed(%x: tensor<4xf32>) -> (tensor<4xf32> {opsnn.gradient}) {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{opsnn-loss-scaling: has a loss seed (argument #0) but no result marked 'opsnn.gradient'}}
func.func @no_gradient(%seed: tensor<f32> {opsnn.loss_seed}) -> tensor<f32> {
  return %seed : tensor<f32>
}

// -----

// expected-error @+1 {{opsnn-loss-scaling: several arguments are marked 'opsnn.loss_seed' (#0 and #1); mark the one dL/dL tensor}}
func.func @two_seeds(%a: tensor<f32> {opsnn.loss_seed}, %b: tensor<f32> {opsnn.loss_seed})
    -> (tensor<f32> {opsnn.gradient}) {
  %s = arith.addf %a, %b : tensor<f32>
  return %s : tensor<f32>
}

// -----

// expected-error @+1 {{opsnn-loss-scaling: loss seed argument #0 has type 'f32'; expected a ranked tensor of floats}}
func.func @scalar_seed(%seed: f32 {opsnn.loss_seed}, %g: tensor<4xf32>)
    -> (tensor<4xf32> {opsnn.gradient}) {
  return %g : tensor<4xf32>
}

// -----

// expected-error @+1 {{opsnn-loss-scaling: loss seed argument #0 has type 'tensor<4xi32>'; expected a ranked tensor of floats}}
func.func @int_seed(%seed: tensor<4xi32> {opsnn.loss_seed}, %g: tensor<4xf32>)
    -> (tensor<4xf32> {opsnn.gradient}) {
  return %g : tensor<4xf32>
}

// -----

// expected-error @+1 {{opsnn-loss-scaling: gradient result #1 has type 'tensor<4xi8>'; expected a ranked tensor of floats}}
func.func @int_gradient(%seed: tensor<f32> {opsnn.loss_seed}, %g: tensor<4xi8>)
    -> (tensor<f32> {opsnn.gradient}, tensor<4xi8> {opsnn.gradient}) {
  return %seed, %g : tensor<f32>, tensor<4xi8>
}

// -----

// expected-error @+1 {{opsnn-loss-scaling: gradient result #0 has type 'tensor<*xf32>'; expected a ranked tensor of floats}}
func.func @unranked_gradient(%seed: tensor<f32> {opsnn.loss_seed}, %g: tensor<*xf32>)
    -> (tensor<*xf32> {opsnn.gradient}) {
  return %g : tensor<*xf32>
}

// -----

// expected-error @+1 {{opsnn-loss-scaling: cannot loss-scale a declaration (no body)}}
func.func private @declaration(%seed: tensor<f32> {opsnn.loss_seed}) -> (tensor<f32> {opsnn.gradient})

// -----

// Scaled with other options before: scaling again would double-scale.
// expected-error @+1 {{opsnn-loss-scaling: function is already loss-scaled with {backoff_factor = 5.000000e-01 : f64, growth_factor = 2.000000e+00 : f64, growth_interval = 3 : i64, init_scale = 6.553600e+04 : f64}; scaling it again with {backoff_factor = 5.000000e-01 : f64, growth_factor = 2.000000e+00 : f64, growth_interval = 2000 : i64, init_scale = 6.553600e+04 : f64} would scale its gradients twice}}
func.func @already_scaled(%seed: tensor<f32> {opsnn.loss_seed},
                          %scale: tensor<f32> {opsnn.loss_scale},
                          %tracker: tensor<i32> {opsnn.growth_tracker})
    -> (tensor<f32> {opsnn.gradient}, tensor<f32> {opsnn.loss_scale},
        tensor<i32> {opsnn.growth_tracker}, tensor<i1> {opsnn.found_non_finite})
    attributes {opsnn.loss_scaling = {backoff_factor = 5.000000e-01 : f64, growth_factor = 2.000000e+00 : f64, growth_interval = 3 : i64, init_scale = 6.553600e+04 : f64}} {
  %false = arith.constant dense<false> : tensor<i1>
  return %seed, %scale, %tracker, %false : tensor<f32>, tensor<f32>, tensor<i32>, tensor<i1>
}
