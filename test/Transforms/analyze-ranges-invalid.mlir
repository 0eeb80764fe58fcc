// RUN: not ops-nn-opt %s --opsnn-analyze-ranges="calibration=%S/Inputs/no-such-file.json" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not ops-nn-opt %s --opsnn-analyze-ranges="calibration=%S/Inputs/bad-calibration-syntax.json" 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not ops-nn-opt %s --opsnn-analyze-ranges="calibration=%S/Inputs/bad-calibration-entry.json" 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: not ops-nn-opt %s --opsnn-analyze-ranges="calibration=%S/Inputs/bad-calibration-field.json" 2>&1 | FileCheck %s --check-prefix=FIELD
// RUN: not ops-nn-opt %s --opsnn-analyze-ranges="calibration=%S/Inputs/precision-lists.json" 2>&1 | FileCheck %s --check-prefix=VERSION

// MISSING: error: opsnn-analyze-ranges: {{.*}}no-such-file.json: cannot read: {{[Nn]}}o such file or directory
// SYNTAX: error: opsnn-analyze-ranges: {{.*}}bad-calibration-syntax.json: 1:48: Expected object key
// ENTRY: error: opsnn-analyze-ranges: {{.*}}bad-calibration-entry.json: range "f/x#0" is inconsistent (min <= max and 0 <= min_abs_nonzero <= max |x| expected)
// FIELD: error: opsnn-analyze-ranges: {{.*}}bad-calibration-field.json: range "f/x#0" needs numbers min, max and min_abs_nonzero
// VERSION: error: opsnn-analyze-ranges: {{.*}}precision-lists.json: expected "version": 1
func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
