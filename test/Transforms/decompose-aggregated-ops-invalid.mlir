// RUN: ops-nn-opt %s --verify-diagnostics --opsnn-decompose-aggregated-ops -o /dev/null

// A softmax on buffers with dynamic shapes has no row buffer to allocate:
// a diagnostic, not a crash.
func.func @dynamic_buffers(%in: memref<?x6xf32>, %out: memref<?x6xf32>) {
  // expected-error @below {{on buffers needs static shapes}}
  linalg.softmax dimension(1) ins(%in : memref<?x6xf32>) outs(%out : memref<?x6xf32>)
  return
}
