//===- LayoutTransformModels.h - ALTE models of upstream ops ----*- C++ -*-===//
//
// External models of LayoutTransformOpInterface for upstream ops: linalg
// convolutions and pooling (channels-first <-> channels-last), generics
// (elementwise, broadcast, reductions, batch norm as lowered),
// linalg.softmax and tensor.pad.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_DIALECT_LAYOUT_INTERFACES_LAYOUTTRANSFORMMODELS_H
#define OPSNN_DIALECT_LAYOUT_INTERFACES_LAYOUTTRANSFORMMODELS_H

namespace mlir {
class DialectRegistry;
namespace opsnn::layout {

/// Attaches the models to linalg ops (when the linalg dialect loads).
void registerLinalgLayoutTransformModels(DialectRegistry &registry);
/// Attaches the model to tensor.pad (when the tensor dialect loads).
void registerTensorLayoutTransformModels(DialectRegistry &registry);

} // namespace opsnn::layout
} // namespace mlir

#endif // OPSNN_DIALECT_LAYOUT_INTERFACES_LAYOUTTRANSFORMMODELS_H
