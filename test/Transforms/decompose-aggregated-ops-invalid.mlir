// RUN: ops-nn-opt %s --verify-diagnostics --opsnn-decompose-aggregated-ops -o /dev/null

// A softmax on buffers that writes its input: exp(x - max) would overwrite
// the row before its maximum is subtracted everywhere. A diagnostic, not a
// miscompile.
func.func @in_place(%x: memref<4x6xf32>) {
  // expected-error @below {{on buffers needs an output apart from its input}}
  linalg.softmax dimension(1) ins(%x : memref<4x6xf32>) outs(%x : memref<4x6xf32>)
  return
}
