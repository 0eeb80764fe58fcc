// The bundled ResNet block (conv-bn-relu-conv-bn-add-relu, NCHW,
// 1x64x56x56) compiled for the CPU and checked against NumPy; the
// directives are in the example file.
// RUN: %check %opsnn_src_root/examples/resnet_block.mlir
