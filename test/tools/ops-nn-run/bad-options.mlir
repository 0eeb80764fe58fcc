// More bad input to ops-nn-run: corrupt .npy headers, options that cannot
// work, IR the pipeline cannot lower. Every failure exits 1 with a message
// that names the input or option (or the op's location), and writes
// nothing: no output folder, no artifact, no temporary.
// RUN: rm -rf %t && mkdir -p %t && split-file %s %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.ones((4,), np.float32)); np.save('%t/f.npy', np.asfortranarray(np.ones((2, 2), np.float32))); np.save('%t/o.npy', np.array([1, 'a'], dtype=object), allow_pickle=True)"
// RUN: %python -c "b = open('%t/x.npy', 'rb').read(); open('%t/hdr.npy', 'wb').write(b[:20]); open('%t/data.npy', 'wb').write(b[:-4]); open('%t/shape.npy', 'wb').write(b.replace(b'(4,)', b'(4x)')); open('%t/be.npy', 'wb').write(b.replace(b'<f4', b'>f4'))"

// RUN: not ops-nn-run %t/double.mlir --input=%t/hdr.npy --output-dir=%t/out 2>&1 | FileCheck %s --check-prefix=HEADER
// HEADER: ops-nn-run: error: input #0: {{.*}}hdr.npy: truncated header
// RUN: not ops-nn-run %t/double.mlir --input=%t/data.npy --output-dir=%t/out 2>&1 | FileCheck %s --check-prefix=DATA
// DATA: ops-nn-run: error: input #0: {{.*}}data.npy: expected 16 bytes of data, the file is shorter
// RUN: not ops-nn-run %t/double.mlir --input=%t/shape.npy --output-dir=%t/out 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: ops-nn-run: error: input #0: {{.*}}shape.npy: malformed 'shape' entry '4x'
// RUN: not ops-nn-run %t/double.mlir --input=%t/be.npy --output-dir=%t/out 2>&1 | FileCheck %s --check-prefix=ENDIAN
// ENDIAN: ops-nn-run: error: input #0: {{.*}}be.npy: big-endian data ('>f4') is not supported
// RUN: not ops-nn-run %t/double.mlir --input=%t/f.npy --output-dir=%t/out 2>&1 | FileCheck %s --check-prefix=FORTRAN
// FORTRAN: ops-nn-run: error: input #0: {{.*}}f.npy: Fortran-order arrays are not supported (save with np.ascontiguousarray)
// RUN: not ops-nn-run %t/double.mlir --input=%t/o.npy --output-dir=%t/out 2>&1 | FileCheck %s --check-prefix=OBJECT
// OBJECT: ops-nn-run: error: input #0: {{.*}}o.npy: unsupported dtype '|O'

// A pipeline that does not parse is reported alone, before compiling.
// RUN: not ops-nn-run %t/double.mlir --input=%t/x.npy --output-dir=%t/out --pipeline='func.func(canonicalize' 2>&1 | FileCheck %s --check-prefix=PIPELINE --implicit-check-not=error:
// PIPELINE: ops-nn-run: error: --pipeline: MLIR Textual PassPipeline Parser:1:11: error: encountered unbalanced parentheses while parsing pipeline

// A chip LLVM does not know is an error, not a warning and PTX for some
// other processor.
// RUN: not ops-nn-run %t/double.mlir --device=cuda --chip=sm_99 --emit-artifact=%t/art 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: ops-nn-run: error: opsnn-lower-to-nvvm: unknown chip 'sm_99' (expected an NVPTX processor such as sm_80)

// An op no pass lowers: located, for either device.
// RUN: not ops-nn-run %t/complex.mlir --input=%t/x.npy --output-dir=%t/out 2>&1 | FileCheck %s --check-prefix=UNLOWERED
// RUN: not ops-nn-run %t/complex.mlir --device=cuda --emit-artifact=%t/art 2>&1 | FileCheck %s --check-prefix=UNLOWERED-CUDA
// UNLOWERED: complex.mlir:8:10: error: opsnn-lower-to-cpu: 'complex.abs' is not supported: no pass of the pipeline lowers it to LLVM
// UNLOWERED: ops-nn-run: error: lowering @complex_abs for the CPU failed
// UNLOWERED-CUDA: complex.mlir:8:10: error: opsnn-lower-to-nvvm: 'complex.abs' is not supported: no pass of the pipeline lowers it to LLVM
// UNLOWERED-CUDA: ops-nn-run: error: lowering @complex_abs for CUDA failed

// --append-ranges onto a file that is not a calibration table.
// RUN: echo '{' > %t/ranges.json
// RUN: not ops-nn-run %t/double.mlir --input=%t/x.npy --collect-ranges=%t/ranges.json --append-ranges 2>&1 | FileCheck %s --check-prefix=APPEND
// APPEND: ops-nn-run: error: {{.*}}ranges.json: 2:0: Expected object key

// --dump-values: the manifest is written whole or not at all.
// RUN: mkdir -p %t/dump/values.json
// RUN: not ops-nn-run %t/double.mlir --input=%t/x.npy --dump-values=%t/dump 2>&1 | FileCheck %s --check-prefix=DUMP
// RUN: not ls %t/dump/values.json.tmp
// DUMP: ops-nn-run: error: cannot write '{{.*}}values.json': Is a directory

// Nothing was written by the failing runs.
// RUN: not ls %t/out
// RUN: not ls -d %t/art %t/art.partial

//--- double.mlir
func.func @double(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = arith.addf %x, %x : tensor<4xf32>
  return %r : tensor<4xf32>
}

//--- complex.mlir
func.func @complex_abs(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = complex.create %a, %a : complex<f32>
    %v = complex.abs %c : complex<f32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
