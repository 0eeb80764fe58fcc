//===- PrecisionAttrs.td - Precision dialect attributes ----*- tablegen -*-===//
//
// Precision assignment and value range attributes.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_DIALECT_PRECISION_IR_PRECISIONATTRS_TD
#define OPSNN_DIALECT_PRECISION_IR_PRECISIONATTRS_TD

include "opsnn/Dialect/Precision/IR/PrecisionDialect.td"
include "mlir/IR/AttrTypeBase.td"

class Precision_Attr<string name, string attrMnemonic>
    : AttrDef<Precision_Dialect, name> {
  let mnemonic = attrMnemonic;
}

def Precision_AssignmentAttr : Precision_Attr<"Assignment", "assignment"> {
  let summary = "Element types an op stores, computes and accumulates in";
  let description = [{
    Example: an FP16 GEMM that accumulates in FP32, and an INT8 convolution:

    ```mlir
    #precision.assignment<storage = f16, compute = f16, accumulate = f32>
    #precision.assignment<storage = i8, compute = i8, accumulate = i32>
    ```

    Each type is a float or signless integer type; `accumulate` is never
    narrower than `compute`.
  }];
  let parameters = (ins "::mlir::Type":$storage, "::mlir::Type":$compute,
                        "::mlir::Type":$accumulate);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Precision_RangeAttr : Precision_Attr<"Range", "range"> {
  let summary = "Value range of a tensor: min, max and smallest non-zero magnitude";
  let description = [{
    `min_abs_nonzero` is the smallest magnitude among the non-zero values
    (0 when every value is zero); it tells whether a narrow type would flush
    values to zero.

    ```mlir
    #precision.range<min = -3.5, max = 70000.0, min_abs_nonzero = 1.0e-09>
    ```
  }];
  let parameters = (ins APFloatParameter<"smallest value">:$min,
                        APFloatParameter<"largest value">:$max,
                        APFloatParameter<"smallest non-zero magnitude">:$minAbsNonzero);
  let assemblyFormat = [{
    `<` `min` `=` custom<Double>($min) `,` `max` `=` custom<Double>($max) `,`
    `min_abs_nonzero` `=` custom<Double>($minAbsNonzero) `>`
  }];
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "double":$min, "double":$max, "double":$minAbsNonzero), [{
      return $_get($_ctxt, ::llvm::APFloat(min), ::llvm::APFloat(max),
                   ::llvm::APFloat(minAbsNonzero));
    }]>
  ];
  let extraClassDeclaration = [{
    /// The bounds as doubles (the storage is IEEE double).
    double getMinValue() const { return getMin().convertToDouble(); }
    double getMaxValue() const { return getMax().convertToDouble(); }
    double getMinAbsNonzeroValue() const {
      return getMinAbsNonzero().convertToDouble();
    }
    /// Largest magnitude in the range.
    double getMaxAbs() const;
    /// True when every value in the range is representable in `type` without
    /// overflowing or flushing a non-zero value below its smallest normal.
    bool fitsIn(::mlir::FloatType type) const;
  }];
}

#endif // OPSNN_DIALECT_PRECISION_IR_PRECISIONATTRS_TD
