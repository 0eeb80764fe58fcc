// A target file that cannot be used stops ops-nn-opt before it reads the
// input: exit code 1 and a diagnostic that names the file (and the line and
// column for syntax errors, the offending field otherwise). No crash, no
// output file.

// RUN: rm -f %t.out
// RUN: not ops-nn-opt %s --opsnn-target-file=%S/Inputs/bad-syntax.json -o %t.out 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not test -e %t.out
// SYNTAX: bad-syntax.json:2:32: error: Expected object key

// RUN: not ops-nn-opt %s --opsnn-target-file=%S/Inputs/bad-field.json 2>&1 | FileCheck %s --check-prefix=FIELD
// FIELD: bad-field.json: error: targets[0].sm_count: expected a positive integer

// RUN: not ops-nn-opt %s --opsnn-target-file=%S/Inputs/unknown-base.json 2>&1 | FileCheck %s --check-prefix=BASE
// BASE: unknown-base.json: error: targets[0].base: unknown target "a1000" (known: t4, v100, a100, l4, h100, h200, host)

// RUN: not ops-nn-opt %s --opsnn-target-file=%S/Inputs/incomplete.json 2>&1 | FileCheck %s --check-prefix=INCOMPLETE
// INCOMPLETE: incomplete.json: error: targets[0]: new target "x" needs "dram_bandwidth_gbps" (or a "base" to start from)

// RUN: not ops-nn-opt %s --opsnn-target-file=%S/Inputs/does-not-exist.json 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: does-not-exist.json: error: cannot read target file: No such file or directory

module {}
