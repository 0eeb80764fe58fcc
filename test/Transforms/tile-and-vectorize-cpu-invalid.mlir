// RUN: ops-nn-opt %s --opsnn-tile-and-vectorize-cpu="vector-width=0" -verify-diagnostics

// expected-error @+1 {{vector-width must be positive, got 0}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
