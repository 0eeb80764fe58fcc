//===- InitAll.h - Register every ops-nn dialect and pass -------*- C++ -*-===//
//
// One call each for tools and embedders: add our dialects to a registry,
// register our passes with the global pass registry.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_INITALL_H
#define OPSNN_INITALL_H

namespace mlir {
class DialectRegistry;
namespace opsnn {

/// Adds the layout, precision and opsnn dialects to `registry`.
void registerAllDialects(DialectRegistry &registry);

/// Registers every ops-nn pass (and pipeline) for command-line use.
void registerAllPasses();

} // namespace opsnn
} // namespace mlir

#endif // OPSNN_INITALL_H
