// --emit-artifact writes model.so + manifest.json; running the artifact
// (no compiler involved) gives bit-identical results to the JIT.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.linspace(-2, 2, 21, dtype=np.float32).reshape(3, 7)); np.save('%t/w.npy', np.linspace(1, 3, 35, dtype=np.float32).reshape(7, 5))"
// RUN: ops-nn-run %s --emit-artifact=%t/art | FileCheck %s --check-prefix=EMIT
// EMIT: artifact: {{.*}}art
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/art/manifest.json
// MANIFEST: "format": "opsnn-artifact",
// MANIFEST: "version": 1,
// MANIFEST: "device": "cpu",
// MANIFEST: "entry": "mm_relu",
// MANIFEST: "library": "model.so",
// MANIFEST: {"type": "tensor<?x7xf32>", "element_type": "f32", "dtype": "<f4", "shape": [-1, 7]},
// MANIFEST: {"type": "tensor<7x5xf32>", "element_type": "f32", "dtype": "<f4", "shape": [7, 5]}
// MANIFEST: "outputs": [
// MANIFEST: {"type": "tensor<?x5xf32>", "element_type": "f32", "dtype": "<f4", "shape": [-1, 5]}
// RUN: ops-nn-run %t/art --input=%t/x.npy --input=%t/w.npy --output-dir=%t/aot
// RUN: ops-nn-run %s --input=%t/x.npy --input=%t/w.npy --output-dir=%t/jit
// RUN: %python -c "import numpy as np; a = np.load('%t/aot/out0.npy'); b = np.load('%t/jit/out0.npy'); x = np.load('%t/x.npy'); w = np.load('%t/w.npy'); assert np.array_equal(a, b); assert np.allclose(a, np.maximum(x @ w, 0), rtol=1e-6), a"

// The artifact checks its inputs like the compiler does.
// RUN: not ops-nn-run %t/art --input=%t/w.npy --input=%t/w.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: ops-nn-run: error: argument #0 (tensor<?x7xf32>): dimension 1 has size 5, expected 7
// RUN: not ops-nn-run %t/art --entry=other --input=%t/x.npy --input=%t/w.npy 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: ops-nn-run: error: the artifact's entry is @mm_relu, not @other
// RUN: not ops-nn-run %t/art --pipeline=canonicalize 2>&1 | FileCheck %s --check-prefix=PIPE
// PIPE: ops-nn-run: error: --pipeline, --emit-artifact, --collect-ranges and --dump-values need an .mlir input, not an artifact

// Broken artifacts: a located JSON error, a wrong format, a missing library.
// RUN: mkdir -p %t/bad1 %t/bad2 %t/bad3
// RUN: echo '{"format": "opsnn-artifact", "version": 1,' > %t/bad1/manifest.json
// RUN: not ops-nn-run %t/bad1 2>&1 | FileCheck %s --check-prefix=JSON
// JSON: ops-nn-run: error: {{.*}}bad1/manifest.json:2:1: unexpected end of input
// RUN: echo '{"format": "onnx", "version": 1}' > %t/bad2/manifest.json
// RUN: not ops-nn-run %t/bad2 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: ops-nn-run: error: {{.*}}bad2/manifest.json: "format" is 'onnx', expected 'opsnn-artifact'
// RUN: sed 's/model.so/missing.so/' %t/art/manifest.json > %t/bad3/manifest.json
// RUN: not ops-nn-run %t/bad3 2>&1 | FileCheck %s --check-prefix=LIBRARY
// LIBRARY: ops-nn-run: error: cannot load '{{.*}}bad3/missing.so'

func.func @mm_relu(%x: tensor<?x7xf32>, %w: tensor<7x5xf32>) -> tensor<?x5xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x7xf32>
  %e = tensor.empty(%n) : tensor<?x5xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<?x5xf32>) -> tensor<?x5xf32>
  %y = linalg.matmul ins(%x, %w : tensor<?x7xf32>, tensor<7x5xf32>) outs(%acc : tensor<?x5xf32>) -> tensor<?x5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<?x5xf32>) outs(%e : tensor<?x5xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<?x5xf32>
  return %r : tensor<?x5xf32>
}
