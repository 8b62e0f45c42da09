package vision

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/attend-go/attend/internal/shareddata"
)

// TestArmNNLayers checks every operator of MobileNet-EdgeTPU and
// MobileNetV2 against an independent integer implementation of TFLite:
// Arm NN 20.08's TFLite parser and reference backend (Debian's
// python3-pyarmnn and libarmnn-cpuref-backend22, through
// testdata/armnn/layers.py). Arm NN reads neither empty activation shapes
// nor a graph's inner tensors, so the test writes the model again with
// the shapes inferShapes gives and every operator's output made a graph
// output. Each operator here is then fed the reference's own inputs
// (dequantized), and its float output must round to the reference's
// uint8 output: within half a quantization step, but for the values the
// reference clips at the ends of its uint8 range. (End to end the two
// differ more: the reference re-quantizes after every layer, this
// package does not.)
//
// The reference backend is plain loops, a minute or more per network on
// a loaded machine, so the test runs only with ATTEND_ARMNN=1.
func TestArmNNLayers(t *testing.T) {
	if os.Getenv("ATTEND_ARMNN") == "" {
		t.Skip("skipping: set ATTEND_ARMNN=1 to compare with Arm NN's reference backend (Debian python3-pyarmnn)")
	}
	python := "/usr/bin/python3"
	if out, err := exec.Command(python, "-c", "import pyarmnn").CombinedOutput(); err != nil {
		t.Skipf("skipping: %s cannot import pyarmnn (apt-get install python3-pyarmnn libarmnn-cpuref-backend22 libarmnntfliteparser22): %v\n%s", python, err, out)
	}
	img, _, err := DecodeFile("../testdata/photos/coffee.jpg", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{shareddata.EdgeTPUFile, shareddata.EncoderFile} {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(shareddata.Path(t, file))
			if err != nil {
				t.Fatal(err)
			}
			m, err := readTFLite(data)
			if err != nil {
				t.Fatal(err)
			}
			net, err := compile(m) // infers the shapes in m
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			model, outputs := armnnModel(m)
			if err := os.WriteFile(filepath.Join(dir, "model.tflite"), model.flatbuffer(), 0o644); err != nil {
				t.Fatal(err)
			}
			pre, err := NewPreprocessor(net.inH, &PreprocessOptions{Fit: CenterCrop})
			if err != nil {
				t.Fatal(err)
			}
			rgba, err := pre.Resize(img)
			if err != nil {
				t.Fatal(err)
			}
			var pixels []byte
			for i := 0; i < len(rgba.Pix); i += 4 {
				pixels = append(pixels, rgba.Pix[i:i+3]...)
			}
			if err := os.WriteFile(filepath.Join(dir, "input.rgb"), pixels, 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(python, "testdata/armnn/layers.py", filepath.Join(dir, "model.tflite"), filepath.Join(dir, "input.rgb"), dir)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%v: %v\n%s", cmd, err, out)
			}
			reference := func(tensor int) ([]float32, float32) {
				j := outputs[tensor]
				v := readFloat32s(t, filepath.Join(dir, fmt.Sprintf("%d.f32", j)))
				return v, readFloat32s(t, filepath.Join(dir, fmt.Sprintf("%d.scale", j)))[0]
			}
			input := make([]float32, len(pixels))
			for i, p := range pixels {
				c := i % 3
				input[i] = (float32(p)/255 - net.norm.Mean[c]) / net.norm.Std[c]
			}
			s := newState(net, 1)
			for k, op := range m.operators {
				for _, in := range op.inputs {
					if in < 0 || m.tensors[in].data != nil {
						continue
					}
					v := input
					if in != m.inputs[0] {
						v, _ = reference(in)
					}
					copy(s.slots[net.tensorSlot[in]], v)
				}
				net.layers[k].run(&s)
				want, scale := reference(op.outputs[0])
				got := s.slots[net.tensorSlot[op.outputs[0]]][:len(want)]
				lo, hi := want[0], want[0]
				for _, v := range want {
					lo, hi = min(lo, v), max(hi, v)
				}
				bad, clipped, worst := 0, 0, 0.0
				for i, w := range want {
					e := math.Abs(float64(got[i]) - float64(w))
					if e <= 0.5*float64(scale)*(1+1e-3)+1e-6 {
						continue
					}
					if w == lo || w == hi {
						clipped++
						continue
					}
					bad++
					worst = max(worst, e/float64(scale))
				}
				if bad > 0 {
					t.Errorf("operator %d (%v, %q): %d of %d values differ from the reference by more than half a step (up to %.2f steps)",
						k, op.op, m.tensors[op.outputs[0]].name, bad, len(want), worst)
				} else if clipped > 0 {
					t.Logf("operator %d (%v): %d values beyond the reference's uint8 range", k, op.op, clipped)
				}
			}
		})
	}
}

// armnnModel returns m as the test builder writes it: every tensor with
// its (inferred) shape and quantization, every operator's options, and as
// graph outputs the model's own followed by each operator's output. The
// map gives each output tensor's position among the graph outputs.
func armnnModel(m *tfModel) (*tinyModel, map[int]int) {
	i32 := func(v []int) []int32 {
		out := make([]int32, len(v))
		for i, x := range v {
			out[i] = int32(x)
		}
		return out
	}
	tm := &tinyModel{inputs: i32(m.inputs), outputs: i32(m.outputs)}
	for _, t := range m.tensors {
		x := tinyTensor{name: t.name, typ: t.typ, shape: i32(t.shape)}
		if len(t.data) > 0 {
			x.data = t.data
		}
		if t.quant != nil {
			x.scale, x.zero, x.qdim = t.quant.scale, t.quant.zero, int32(t.quant.dim)
		}
		tm.tensors = append(tm.tensors, x)
	}
	position := map[int]int{}
	for j, o := range m.outputs {
		position[o] = j
	}
	for _, op := range m.operators {
		o := &op.opts
		var tag uint8
		var opts fbTable
		in := i32(op.inputs)
		switch op.op {
		case opConv2D:
			tag, opts = optConv2D, fbTable{uint8(o.padding), int32(o.strideW), int32(o.strideH), uint8(o.activation), int32(o.dilationW), int32(o.dilationH)}
		case opDepthwiseConv2D:
			tag, opts = optDepthwiseConv2D, fbTable{uint8(o.padding), int32(o.strideW), int32(o.strideH), int32(o.depthMultiplier), uint8(o.activation), int32(o.dilationW), int32(o.dilationH)}
		case opAveragePool2D:
			tag, opts = optPool2D, fbTable{uint8(o.padding), int32(o.strideW), int32(o.strideH), int32(o.filterW), int32(o.filterH), uint8(o.activation)}
		case opAdd:
			tag, opts = optAdd, fbTable{uint8(o.activation)}
		case opSoftmax:
			tag, opts = optSoftmax, fbTable{o.beta}
		case opSqueeze:
			tag, opts = optSqueeze, fbTable{i32(o.squeezeDims)}
		case opReshape:
			// The target shape as an option, which Arm NN reads.
			tag, opts, in = optReshape, fbTable{i32(m.tensors[op.outputs[0]].shape)}, in[:1]
		}
		tm.ops = append(tm.ops, tinyOp{code: op.op, inputs: in, outputs: i32(op.outputs), optTag: tag, opts: opts})
		if out := op.outputs[0]; !hasKey(position, out) {
			position[out] = len(tm.outputs)
			tm.outputs = append(tm.outputs, int32(out))
		}
	}
	return tm, position
}

func hasKey(m map[int]int, k int) bool {
	_, ok := m[k]
	return ok
}

func readFloat32s(t *testing.T, path string) []float32 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}
