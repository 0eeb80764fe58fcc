// ops-nn-opt lists our passes, with their summaries, beside upstream ones.
// RUN: ops-nn-opt --help | FileCheck %s

// CHECK-DAG: --opsnn-lower-layouts {{.*}}- Lower layout.convert to linalg.transpose / linalg.pack / linalg.unpack
// CHECK-DAG: --opsnn-lower-precision {{.*}}- Lower precision dialect ops to arith, math, tensor and linalg
// CHECK-DAG: --opsnn-target-file=<filename>
// CHECK-DAG: --convert-linalg-to-loops
// CHECK-DAG: --gpu-kernel-outlining
