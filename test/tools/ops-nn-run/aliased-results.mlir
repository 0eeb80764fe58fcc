// Two results sharing one buffer (a value and a reshaped view of it, 256 KiB:
// big enough for malloc to hand back its own mapping) are both copied out
// before the buffer is freed, once.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.linspace(-1, 1, 65536, dtype=np.float32).reshape(256, 256))"
// RUN: ops-nn-run %s --input=%t/x.npy --output-dir=%t/out | FileCheck %s
// CHECK: out0: <f4 [256x256]
// CHECK: out1: <f4 [65536]
// RUN: %python -c "import numpy as np; x = np.load('%t/x.npy'); a = np.load('%t/out/out0.npy'); b = np.load('%t/out/out1.npy'); assert (a == np.maximum(x, 0)).all() and (b == a.ravel()).all()"
#id = affine_map<(i, j) -> (i, j)>
func.func @relu_and_flat(%x: tensor<256x256xf32>) -> (tensor<256x256xf32>, tensor<65536xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<256x256xf32>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<256x256xf32>
  %flat = tensor.collapse_shape %r [[0, 1]] : tensor<256x256xf32> into tensor<65536xf32>
  return %r, %flat : tensor<256x256xf32>, tensor<65536xf32>
}
