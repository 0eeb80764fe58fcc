// Dynamic loss scaling executed: the backward pass of a linear layer,
// loss = sum(x @ w + b), compiled once with --opsnn-loss-scaling in front of
// the CPU pipeline (artifact), then run step after step by
// loss-scaling.py, which feeds each step's new scale and growth tracker to
// the next, with inputs that make some steps non-finite (f16 overflow of
// the scaled gradients, inf and NaN inputs). The sequence of (scale,
// tracker, found_non_finite) must equal GradScaler's, bit for bit, and the
// unscaled gradients of the finite steps the unscaled reference.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/loss-scaling.py %s --ops-nn-run=%opsnn_tools_dir/ops-nn-run --work-dir=%t/default --growth-interval=3 | FileCheck %s
// RUN: %python %S/loss-scaling.py %s --ops-nn-run=%opsnn_tools_dir/ops-nn-run --work-dir=%t/custom --growth-interval=2 --growth-factor=1.5 --backoff-factor=0.25 --init-scale=1024 | FileCheck %s
// CHECK: steps: {{[0-9]+}}, non-finite: {{[1-9][0-9]*}}, grown: {{[1-9][0-9]*}}, backed off: {{[1-9][0-9]*}}
// CHECK: OK: scale, tracker and found_non_finite match GradScaler at every step

#bcast = affine_map<(d0, d1) -> ()>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @linear_backward(%x: tensor<?x8xf16>, %w: tensor<8x4xf16>,
                           %seed: tensor<f32> {opsnn.loss_seed})
    -> (tensor<8x4xf16> {opsnn.gradient}, tensor<4xf32> {opsnn.gradient},
        tensor<?x8xf16> {opsnn.gradient}) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x8xf16>
  // dL/dy: the seed broadcast over the batch, stored in f16 for the matmuls.
  %dy_init = tensor.empty(%n) : tensor<?x4xf32>
  %dy = linalg.generic {indexing_maps = [#bcast, #id],
                        iterator_types = ["parallel", "parallel"]}
      ins(%seed : tensor<f32>) outs(%dy_init : tensor<?x4xf32>) {
  ^bb0(%s: f32, %o: f32):
    linalg.yield %s : f32
  } -> tensor<?x4xf32>
  %dyh = arith.truncf %dy : tensor<?x4xf32> to tensor<?x4xf16>
  // dw = x^T dy (f16, accumulated in f32)
  %xt_init = tensor.empty(%n) : tensor<8x?xf16>
  %xt = linalg.transpose ins(%x : tensor<?x8xf16>) outs(%xt_init : tensor<8x?xf16>) permutation = [1, 0]
  %dw_init = tensor.empty() : tensor<8x4xf32>
  %dw_zero = linalg.fill ins(%zero : f32) outs(%dw_init : tensor<8x4xf32>) -> tensor<8x4xf32>
  %dw32 = linalg.matmul ins(%xt, %dyh : tensor<8x?xf16>, tensor<?x4xf16>) outs(%dw_zero : tensor<8x4xf32>) -> tensor<8x4xf32>
  %dw = arith.truncf %dw32 : tensor<8x4xf32> to tensor<8x4xf16>
  // db = sum over the batch of dy (f32)
  %db_init = tensor.empty() : tensor<4xf32>
  %db_zero = linalg.fill ins(%zero : f32) outs(%db_init : tensor<4xf32>) -> tensor<4xf32>
  %db = linalg.reduce ins(%dy : tensor<?x4xf32>) outs(%db_zero : tensor<4xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %sum = arith.addf %in, %acc : f32
      linalg.yield %sum : f32
    }
  // dx = dy w^T (f16, accumulated in f32)
  %wt_init = tensor.empty() : tensor<4x8xf16>
  %wt = linalg.transpose ins(%w : tensor<8x4xf16>) outs(%wt_init : tensor<4x8xf16>) permutation = [1, 0]
  %dx_init = tensor.empty(%n) : tensor<?x8xf32>
  %dx_zero = linalg.fill ins(%zero : f32) outs(%dx_init : tensor<?x8xf32>) -> tensor<?x8xf32>
  %dx32 = linalg.matmul ins(%dyh, %wt : tensor<?x4xf16>, tensor<4x8xf16>) outs(%dx_zero : tensor<?x8xf32>) -> tensor<?x8xf32>
  %dx = arith.truncf %dx32 : tensor<?x8xf32> to tensor<?x8xf16>
  return %dw, %db, %dx : tensor<8x4xf16>, tensor<4xf32>, tensor<?x8xf16>
}
