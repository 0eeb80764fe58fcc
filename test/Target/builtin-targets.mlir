// RUN: ops-nn-opt %s --test-opsnn-target-info -split-input-file 2>&1 | FileCheck %s

// Every built-in target resolves to its datasheet figures (docs/Targets.md).

// CHECK: remark: target t4 kind=gpu chip=sm_75 bw_gbps=320 fp32=8.1 tf32=0 fp16=65 bf16=0 fp8=0 int8=130 l2=4194304 sector=32 line=128 sms=40 warp=32 smem_per_sm=65536
module attributes {opsnn.target = #opsnn.target<"t4">} {}

// -----

// CHECK: remark: target v100 kind=gpu chip=sm_70 bw_gbps=900 fp32=15.7 tf32=0 fp16=125 bf16=0 fp8=0 int8=62.8 l2=6291456 sector=32 line=128 sms=80 warp=32 smem_per_sm=98304
module attributes {opsnn.target = #opsnn.target<"v100">} {}

// -----

// CHECK: remark: target a100 kind=gpu chip=sm_80 bw_gbps=1555 fp32=19.5 tf32=156 fp16=312 bf16=312 fp8=0 int8=624 l2=41943040 sector=32 line=128 sms=108 warp=32 smem_per_sm=167936
module attributes {opsnn.target = #opsnn.target<"a100">} {}

// -----

// CHECK: remark: target l4 kind=gpu chip=sm_89 bw_gbps=300 fp32=30.3 tf32=60 fp16=121 bf16=121 fp8=242.5 int8=242.5 l2=50331648 sector=32 line=128 sms=58 warp=32 smem_per_sm=102400
module attributes {opsnn.target = #opsnn.target<"l4">} {}

// -----

// CHECK: remark: target h100 kind=gpu chip=sm_90 bw_gbps=3350 fp32=67 tf32=494.7 fp16=989.4 bf16=989.4 fp8=1978.9 int8=1978.9 l2=52428800 sector=32 line=128 sms=132 warp=32 smem_per_sm=233472
module attributes {opsnn.target = #opsnn.target<"h100">} {}

// -----

// CHECK: remark: target h200 kind=gpu chip=sm_90 bw_gbps=4800 fp32=67 tf32=494.7 fp16=989.4 bf16=989.4 fp8=1978.9 int8=1978.9 l2=52428800 sector=32 line=128 sms=132 warp=32 smem_per_sm=233472
module attributes {opsnn.target = #opsnn.target<"h200">} {}

// -----

// CHECK: remark: target host kind=cpu chip= bw_gbps=20 fp32=0.16 tf32=0 fp16=0 bf16=0 fp8=0 int8=0.32 l2=2097152 sector=64 line=64 sms=2 warp=8 smem_per_sm=49152
module attributes {opsnn.target = #opsnn.target<"host">} {}

// -----

// The attribute round-trips and can sit on any op.
// CHECK: remark: target a100
// CHECK: func.func @f() attributes {opsnn.target = #opsnn.target<"a100">}
func.func @f() attributes {opsnn.target = #opsnn.target<"a100">} {
  return
}
