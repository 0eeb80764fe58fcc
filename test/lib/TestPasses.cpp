//===- TestPasses.cpp - Registration of test-only passes ------------------===//
//
// Registers the passes under test/lib with ops-nn-opt.
//
//===----------------------------------------------------------------------===//

namespace mlir::opsnn::test {
void registerTestTargetInfoPass();

void registerTestPasses() { registerTestTargetInfoPass(); }
} // namespace mlir::opsnn::test
