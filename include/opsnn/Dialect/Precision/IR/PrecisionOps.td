//===- PrecisionOps.td - Precision dialect operations ------*- tablegen -*-===//
//
// precision.cast and the dynamic loss-scaling ops used by training graphs.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_DIALECT_PRECISION_IR_PRECISIONOPS_TD
#define OPSNN_DIALECT_PRECISION_IR_PRECISIONOPS_TD

include "opsnn/Dialect/Precision/IR/PrecisionDialect.td"
include "opsnn/Dialect/Precision/IR/PrecisionAttrs.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Precision_CastOp : Precision_Op<"cast",
    [Pure, SameOperandsAndResultShape]> {
  let summary = "Converts floating-point values to another float type";
  let description = [{
    Rounds to nearest, ties to even. Works on scalars and ranked tensors.

    ```mlir
    %h = precision.cast %x : tensor<4x8xf32> to tensor<4x8xf16>
    ```

    Folds: a cast to the same type; `cast(cast(x : A to B) : B to C)` to
    `cast(x : A to C)` (or to `x` when `C == A`) whenever `A to B` is exact;
    constants, with correct rounding. `f32 -> f16 -> f32` is *not* folded: it
    rounds.
  }];
  let arguments = (ins Precision_FloatLike:$input);
  let results = (outs Precision_FloatLike:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasFolder = 1;
}

def Precision_ScaleOp : Precision_Op<"scale",
    [Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "Multiplies a value (the loss) by the loss scale";
  let description = [{
    `result = input * scale`, computed in f32 and rounded to the input type.

    ```mlir
    %scaled = precision.scale %loss by %s : tensor<f32>
    ```

    Folds when `scale` is the constant 1.
  }];
  let arguments = (ins Precision_FloatLike:$input, F32:$scale);
  let results = (outs Precision_FloatLike:$result);
  let assemblyFormat = "$input `by` $scale attr-dict `:` type($input)";
  let hasFolder = 1;
}

def Precision_UnscaleAndCheckOp : Precision_Op<"unscale_and_check",
    [Pure, InferTypeOpAdaptor]> {
  let summary = "Divides gradients by the loss scale and checks them for inf/NaN";
  let description = [{
    Returns every input multiplied by `1 / scale` (in f32, rounded back to the
    input's type), and an `i1` that is true when any input element is
    infinite or NaN (PyTorch's `_amp_foreach_non_finite_check_and_unscale_`).

    ```mlir
    %g:3 = precision.unscale_and_check %dw, %db by %s
        : tensor<64x32xf16>, tensor<64xf32>
    // %g#0, %g#1: unscaled gradients; %g#2: i1 found-non-finite
    ```

    Folds when every operand is constant.
  }];
  let arguments = (ins Variadic<Precision_FloatLike>:$inputs, F32:$scale);
  let results = (outs Variadic<Precision_FloatLike>:$results,
                      I1:$found_non_finite);
  let assemblyFormat = "$inputs `by` $scale attr-dict `:` type($inputs)";
  let hasFolder = 1;
}

def Precision_UpdateLossScaleOp : Precision_Op<"update_loss_scale", [Pure]> {
  let summary = "Dynamic loss-scale update with PyTorch GradScaler semantics";
  let description = [{
    Given the current `scale`, the count of consecutive finite steps
    `growth_tracker` and this step's `found_non_finite` flag:

    - non-finite: `scale *= backoff_factor`, tracker reset to 0;
    - otherwise tracker + 1; when it reaches `growth_interval`,
      `scale *= growth_factor` (kept only if finite) and the tracker resets.

    `init_scale` is the scale a training loop starts from. Defaults follow
    `torch.amp.GradScaler`: 65536, 2.0, 0.5, 2000.

    ```mlir
    %s1, %t1 = precision.update_loss_scale %s0, %t0, %inf {growth_interval = 100}
    ```

    Folds when all three operands are constant.
  }];
  let arguments = (ins F32:$scale, I32:$growth_tracker, I1:$found_non_finite,
                       DefaultValuedAttr<F64Attr, "65536.0">:$init_scale,
                       DefaultValuedAttr<F64Attr, "2.0">:$growth_factor,
                       DefaultValuedAttr<F64Attr, "0.5">:$backoff_factor,
                       DefaultValuedAttr<I64Attr, "2000">:$growth_interval);
  let results = (outs F32:$new_scale, I32:$new_growth_tracker);
  let assemblyFormat = [{
    $scale `,` $growth_tracker `,` $found_non_finite attr-dict
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

#endif // OPSNN_DIALECT_PRECISION_IR_PRECISIONOPS_TD
