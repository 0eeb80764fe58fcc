//===- PrecisionDialect.td - The precision dialect ---------*- tablegen -*-===//
//
// The `precision` dialect carries mixed-precision decisions (which element
// types an op stores, computes and accumulates in), value ranges, casts and
// the loss-scaling ops of mixed-precision training.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_DIALECT_PRECISION_IR_PRECISIONDIALECT_TD
#define OPSNN_DIALECT_PRECISION_IR_PRECISIONDIALECT_TD

include "mlir/IR/OpBase.td"

def Precision_Dialect : Dialect {
  let name = "precision";
  let cppNamespace = "::mlir::opsnn::precision";
  let summary = "Mixed-precision assignments, value ranges, casts and loss scaling";
  let description = [{
    `#precision.assignment<...>` records the precision chosen for an op,
    `#precision.range<...>` the value range observed or inferred for a value.
    `precision.cast` converts between floating-point element types with
    round-to-nearest-even and folds chains that lose nothing. The training
    ops implement dynamic loss scaling with PyTorch `GradScaler` semantics.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    /// Adds the attributes (defined in PrecisionAttrs.cpp).
    void registerAttributes();
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

class Precision_Op<string mnemonic, list<Trait> traits = []>
    : Op<Precision_Dialect, mnemonic, traits>;

/// A float scalar or a ranked tensor of floats.
def Precision_FloatLike : AnyTypeOf<[AnyFloat, RankedTensorOf<[AnyFloat]>],
                                    "float or ranked tensor of floats">;

#endif // OPSNN_DIALECT_PRECISION_IR_PRECISIONDIALECT_TD
