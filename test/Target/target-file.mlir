// RUN: ops-nn-opt %s --opsnn-target-file=%S/Inputs/targets.json --test-opsnn-target-info -split-input-file 2>&1 | FileCheck %s

// A new entry starting from a built-in keeps every figure it does not set.
// CHECK: remark: target a100-80g kind=gpu chip=sm_80 bw_gbps=2039 fp32=19.5 tf32=156 fp16=312 bf16=312 fp8=0 int8=624 l2=41943040
module attributes {opsnn.target = #opsnn.target<"a100-80g">} {}

// -----

// An entry named like a built-in overrides just the fields it sets.
// CHECK: remark: target h200 kind=gpu chip=sm_90 bw_gbps=4800 fp32=67 tf32=494.7 fp16=989.4 bf16=989.4 fp8=2000 int8=1978.9
module attributes {opsnn.target = #opsnn.target<"h200">} {}

// -----

// A wholly new target.
// CHECK: remark: target my-cpu kind=cpu chip= bw_gbps=50 fp32=1.5 tf32=0 fp16=0 bf16=0 fp8=0 int8=0 l2=0 sector=64 line=64 sms=16 warp=16 smem_per_sm=0
module attributes {opsnn.target = #opsnn.target<"my-cpu">} {}
