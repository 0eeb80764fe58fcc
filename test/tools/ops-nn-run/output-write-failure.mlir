// An output that cannot be written is an error (exit 1) and leaves neither a
// truncated file nor its temporary behind: .npy files are written next to
// their destination and renamed into place once complete.
// RUN: rm -rf %t && mkdir -p %t/out/out0.npy
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.ones((4,), np.float32))"
// RUN: not ops-nn-run %s --input=%t/x.npy --output-dir=%t/out 2>&1 | FileCheck %s
// RUN: test -d %t/out/out0.npy
// RUN: not ls %t/out/out0.npy.tmp
// CHECK: ops-nn-run: error: error while writing '{{.*}}out0.npy'

// The same run into a writable directory leaves exactly the output.
// RUN: ops-nn-run %s --input=%t/x.npy --output-dir=%t/ok
// RUN: ls %t/ok | FileCheck %s --check-prefix=OK --implicit-check-not=tmp
// OK: out0.npy

// Calibration files and artifacts likewise: a folder where the file should
// go makes --collect-ranges fail with nothing left next to it; a folder in
// the artifact's way is replaced only once the new artifact is complete, and
// a failed artifact leaves no staging folder.
// RUN: mkdir -p %t/ranges.json
// RUN: not ops-nn-run %s --input=%t/x.npy --collect-ranges=%t/ranges.json 2>&1 | FileCheck %s --check-prefix=RANGES
// RUN: not ls %t/ranges.json.tmp
// RANGES: ops-nn-run: error: {{.*}}ranges.json: cannot write
// RUN: ops-nn-run %s --emit-artifact=%t/art | FileCheck %s --check-prefix=ART
// RUN: ops-nn-run %s --emit-artifact=%t/art | FileCheck %s --check-prefix=ART
// RUN: ls %t | FileCheck %s --check-prefix=NOSTAGING --implicit-check-not=partial
// ART: artifact: {{.*}}art
// NOSTAGING: art
// RUN: touch %t/blocker
// RUN: not ops-nn-run %s --emit-artifact=%t/blocker/art 2>&1 | FileCheck %s --check-prefix=BLOCKED
// RUN: not ls -d %t/blocker/art.partial
// BLOCKED: ops-nn-run: error: cannot create '{{.*}}blocker/art.partial'

func.func @double(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = arith.addf %x, %x : tensor<4xf32>
  return %r : tensor<4xf32>
}
