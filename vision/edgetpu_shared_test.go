package vision

import (
	"os"
	"testing"

	"github.com/attend-go/attend/internal/shareddata"
)

func edgeTPUPath(t testing.TB) string {
	return shareddata.Path(t, shareddata.EdgeTPUFile)
}

// TestMobileNetEdgeTPUGraph pins down what the MobileNet-EdgeTPU file
// holds (activation shapes left empty, plain ReLU, full 3×3 convolutions,
// 5×5 depthwise ones) and that the compiled graph has the shapes and work
// of the paper's network: 7×7×1280 at Conv_1/Relu, 990 M multiply-adds
// (Gupta and Tan 2019, the Google AI blog's MobileNet-EdgeTPU post).
func TestMobileNetEdgeTPUGraph(t *testing.T) {
	data, err := os.ReadFile(edgeTPUPath(t))
	if err != nil {
		t.Fatal(err)
	}
	m, err := readTFLite(data)
	if err != nil {
		t.Fatal(err)
	}
	kernels := map[[3]int]int{} // {op, kh, stride} of the convolutions
	acts := map[tfActivation]int{}
	empty := 0
	for _, op := range m.operators {
		if op.op == opConv2D || op.op == opDepthwiseConv2D {
			kernels[[3]int{int(op.op), m.tensors[op.inputs[1]].shape[1], op.opts.strideH}]++
			acts[op.opts.activation]++
		}
		if len(m.tensors[op.outputs[0]].shape) == 0 {
			empty++
		}
	}
	checkOpCounts(t, m, map[tfOp]int{opConv2D: 46, opDepthwiseConv2D: 13, opAdd: 15, opAveragePool2D: 1, opSqueeze: 1, opReshape: 1, opSoftmax: 1})
	if empty != len(m.operators) {
		t.Errorf("%d of %d operator outputs have a shape in the file; the test expects none", len(m.operators)-empty, len(m.operators))
	}
	for _, k := range [][3]int{{int(opConv2D), 3, 1}, {int(opConv2D), 3, 2}, {int(opDepthwiseConv2D), 5, 1}, {int(opDepthwiseConv2D), 5, 2}} {
		if kernels[k] == 0 {
			t.Errorf("no %v with a %d×%d kernel and stride %d", tfOp(k[0]), k[1], k[1], k[2])
		}
	}
	if acts[actRelu6] != 0 || acts[actRelu] == 0 {
		t.Errorf("fused activations %v, want ReLU and no ReLU6", acts)
	}
	net, err := compile(m)
	if err != nil {
		t.Fatal(err)
	}
	if net.macs < 985e6 || net.macs > 995e6 {
		t.Errorf("%d multiply-adds, want about 990 M", net.macs)
	}
	if net.classes != 1001 {
		t.Errorf("%d classes, want 1001", net.classes)
	}
	checkGrids(t, net, MobileNetEdgeTPU, []gridWant{
		{GridFinal, 7, 7, 1280, "MobilenetEdgeTPU/Conv_1/Relu;"},
		{GridBlock13, 14, 14, 768, "MobilenetEdgeTPU/expanded_conv_"},
	})
}

// TestMobileNetEdgeTPUFeatures runs the encoder on a photo: the grid is
// 7×7×1280, after a ReLU (no negative value, some positive), and Classify
// gives 1001 probabilities summing to one.
func TestMobileNetEdgeTPUFeatures(t *testing.T) {
	enc, err := LoadEncoder(edgeTPUPath(t), &EncoderOptions{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	if h, w, d := enc.GridShape(); h != 7 || w != 7 || d != 1280 {
		t.Fatalf("grid %d×%d×%d, want 7×7×1280", h, w, d)
	}
	img, _, err := DecodeFile("../testdata/photos/coffee.jpg", nil)
	if err != nil {
		t.Fatal(err)
	}
	pre, err := enc.NewPreprocessor(nil)
	if err != nil {
		t.Fatal(err)
	}
	x, err := pre.Tensor(img)
	if err != nil {
		t.Fatal(err)
	}
	f, err := enc.Features(nil, x)
	if err != nil {
		t.Fatal(err)
	}
	if len(f) != 49*1280 {
		t.Fatalf("%d features, want 49×1280", len(f))
	}
	positive := 0
	for i, v := range f {
		if v < 0 || v != v {
			t.Fatalf("feature %d is %v; Conv_1 ends in a ReLU", i, v)
		}
		if v > 0 {
			positive++
		}
	}
	if positive < len(f)/20 {
		t.Errorf("only %d of %d features are positive", positive, len(f))
	}
	probs, err := enc.Classify(nil, x)
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, p := range probs {
		sum += float64(p)
	}
	if len(probs) != 1001 || sum < 0.9999 || sum > 1.0001 {
		t.Errorf("%d probabilities summing to %v, want 1001 summing to 1", len(probs), sum)
	}
}
