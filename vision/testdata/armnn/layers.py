"""Runs a TFLite model on Arm NN's reference backend and writes every
graph output, dequantized, for vision's TestArmNNLayers.

usage: python3 layers.py MODEL.tflite INPUT.rgb OUTDIR

MODEL's outputs are the tensors to compare (the test writes it); INPUT is
H*W*3 uint8 RGB bytes. For output j, OUTDIR/j.f32 holds its values as
little-endian float32, scale*(q - zero_point), and OUTDIR/j.scale its
quantization scale. Needs Debian's python3-pyarmnn and
libarmnn-cpuref-backend22 (Arm NN 20.08).
"""
import os
import sys

import numpy as np
import pyarmnn as ann

model, rgb, outdir = sys.argv[1:4]
parser = ann.ITfLiteParser()
net = parser.CreateNetworkFromBinaryFile(model)
inp = parser.GetNetworkInputBindingInfo(0, parser.GetSubgraphInputTensorNames(0)[0])
outs = [parser.GetNetworkOutputBindingInfo(0, n) for n in parser.GetSubgraphOutputTensorNames(0)]
runtime = ann.IRuntime(ann.CreationOptions())
opt, _ = ann.Optimize(net, [ann.BackendId("CpuRef")], runtime.GetDeviceSpec(), ann.OptimizerOptions())
net_id, _ = runtime.LoadNetwork(opt)
shape = inp[1].GetShape()
data = np.fromfile(rgb, dtype=np.uint8).reshape(1, shape[1], shape[2], 3)
tensors = ann.make_output_tensors(outs)
runtime.EnqueueWorkload(net_id, ann.make_input_tensors([inp], [data]), tensors)
for j, (info, values) in enumerate(zip(outs, ann.workload_tensors_to_ndarray(tensors))):
    scale, zero = info[1].GetQuantizationScale(), info[1].GetQuantizationOffset()
    real = (values.reshape(-1).astype(np.float64) - zero) * scale
    real.astype("<f4").tofile(os.path.join(outdir, "%d.f32" % j))
    np.array([scale], dtype="<f4").tofile(os.path.join(outdir, "%d.scale" % j))
