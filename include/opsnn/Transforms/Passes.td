//===- Passes.td - ops-nn passes ---------------------------*- tablegen -*-===//
//
// Every ops-nn pass, with its flag, summary, description and options.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_TRANSFORMS_PASSES_TD
#define OPSNN_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerLayoutsPass : Pass<"opsnn-lower-layouts"> {
  let summary = "Lower layout.convert to linalg.transpose / linalg.pack / linalg.unpack";
  let description = [{
    Replaces every `layout.convert` by upstream linalg ops on tensors: a
    single `linalg.transpose` between two unblocked layouts (the two
    permutations composed), `linalg.unpack` out of a blocked layout and
    `linalg.pack` into one. Dynamic sizes are computed with `tensor.dim`.

    Before:

    ```mlir
    %y = layout.convert %x from "NCHW" to "NHWC"
        : tensor<1x3x8x8xf32> -> tensor<1x8x8x3xf32>
    ```

    After:

    ```mlir
    %e = tensor.empty() : tensor<1x8x8x3xf32>
    %y = linalg.transpose ins(%x : tensor<1x3x8x8xf32>)
        outs(%e : tensor<1x8x8x3xf32>) permutation = [0, 2, 3, 1]
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def LowerPrecisionPass : Pass<"opsnn-lower-precision"> {
  let summary = "Lower precision dialect ops to arith, math, tensor and linalg";
  let description = [{
    `precision.cast` becomes `arith.extf` / `arith.truncf` (round to nearest
    even); `precision.scale` and `precision.unscale_and_check` compute in f32
    and round back; the non-finite check is a `linalg.reduce` of
    `math.isfinite`; `precision.update_loss_scale` becomes scalar `arith`
    with `arith.select`, following PyTorch GradScaler.

    Before:

    ```mlir
    %h = precision.cast %x : tensor<4xf32> to tensor<4xf16>
    ```

    After:

    ```mlir
    %h = arith.truncf %x : tensor<4xf32> to tensor<4xf16>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // OPSNN_TRANSFORMS_PASSES_TD
