// RUN: ops-nn-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{unknown target "a1000"; known targets: t4, v100, a100, l4, h100, h200, host}}
module attributes {opsnn.target = #opsnn.target<"a1000">} {}

// -----

// expected-error @+1 {{expected string}}
module attributes {opsnn.target = #opsnn.target<a100>} {}
