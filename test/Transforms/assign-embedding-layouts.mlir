// The DLRM-style example: per-feature hot/cold layouts from an access
// profile.
// RUN: ops-nn-opt %opsnn_src_root/examples/dlrm_embeddings.mlir --opsnn-assign-embedding-layouts="access-profile=%S/Inputs/dlrm-profile.json" | FileCheck %s
// RUN: not ops-nn-opt %opsnn_src_root/examples/dlrm_embeddings.mlir --opsnn-assign-embedding-layouts 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not ops-nn-opt %opsnn_src_root/examples/dlrm_embeddings.mlir --opsnn-assign-embedding-layouts="access-profile=%S/Inputs/bad-profile.json" 2>&1 | FileCheck %s --check-prefix=FIELD
// RUN: not ops-nn-opt %opsnn_src_root/examples/dlrm_embeddings.mlir --opsnn-assign-embedding-layouts="access-profile=%s" 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not ops-nn-opt %opsnn_src_root/examples/dlrm_embeddings.mlir --opsnn-assign-embedding-layouts="access-profile=%S/Inputs/no-such-file.json" 2>&1 | FileCheck %s --check-prefix=NOFILE

// user_id: 4096 lookups per call, each reading 16 sectors column-major
// instead of 2 row-contiguous: the saving outweighs converting the
// 64 KB table once per call. It is converted (once, at the top) and its
// lookup reads [row, column].
// CHECK-LABEL: func @dlrm
// CHECK: %[[USER:.*]] = layout.convert %arg5 from "KM" to "MK" : tensor<16x1000xf32> -> tensor<1000x16xf32>
// CHECK: linalg.generic
// CHECK-SAME: layout.embedding = {conversion_seconds = {{.*}}, decision = "hot", feature = "user_id", saved_seconds = {{.*}}}
// CHECK: %[[ROW:.*]] = arith.index_cast
// CHECK: %[[COL:.*]] = linalg.index 1
// CHECK: tensor.extract %[[USER]][%[[ROW]], %[[COL]]] : tensor<1000x16xf32>
// item_id: 2 lookups per call: converting the table does not pay; kept.
// CHECK: linalg.generic
// CHECK-SAME: decision = "cold", feature = "item_id"
// CHECK: tensor.extract %arg6[%{{.*}}, %{{.*}}] : tensor<16x500xf32>
// country is row-contiguous already (and not in the profile).
// CHECK: linalg.generic
// CHECK-SAME: decision = "row-contiguous", feature = "country"
// CHECK: tensor.extract %arg7[%{{.*}}, %{{.*}}] : tensor<50x16xf32>
// CHECK-NOT: layout.convert

// MISSING: error: opsnn-assign-embedding-layouts: needs access-profile=FILE.json
// FIELD: error: opsnn-assign-embedding-layouts: {{.*}}bad-profile.json: features.user_id.lookups: unknown field (expected lookups_per_call)
// SYNTAX: error: opsnn-assign-embedding-layouts: {{.*}}assign-embedding-layouts.mlir:1:1: Invalid JSON value
// NOFILE: error: opsnn-assign-embedding-layouts: {{.*}}no-such-file.json: cannot read access profile: No such file or directory
