package vision

import (
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/internal/shareddata"
)

func mobileNetPath(t testing.TB) string {
	return shareddata.Path(t, shareddata.EncoderFile)
}

// TestMobileNetV2Graph pins down what the model file contains and where
// the feature grids are found in it.
func TestMobileNetV2Graph(t *testing.T) {
	data, err := os.ReadFile(mobileNetPath(t))
	if err != nil {
		t.Fatal(err)
	}
	m, err := readTFLite(data)
	if err != nil {
		t.Fatal(err)
	}
	checkOpCounts(t, m, map[tfOp]int{opConv2D: 36, opDepthwiseConv2D: 17, opAdd: 10, opAveragePool2D: 1, opReshape: 1, opSoftmax: 1})
	in := m.tensors[m.inputs[0]]
	if in.typ != tfUint8 || in.quant == nil || in.quant.scale[0] != 1.0/128 || in.quant.zero[0] != 128 {
		t.Errorf("input %v %v quantization %+v, want uint8 with scale 1/128, zero point 128", in.typ, in.shape, in.quant)
	}
	net, err := compile(m)
	if err != nil {
		t.Fatal(err)
	}
	// 300 M multiply-adds (Sandler et al. 2018, Table 3), plus the pool.
	if net.macs < 295e6 || net.macs > 310e6 {
		t.Errorf("%d multiply-adds, want about 300 M", net.macs)
	}
	checkGrids(t, net, MobileNetV2, []gridWant{
		{GridFinal, 7, 7, 1280, "MobilenetV2/Conv_1/Relu6"},
		{GridBlock13, 14, 14, 576, "MobilenetV2/expanded_conv_13/expand/Relu6"},
	})
	total := 0
	for _, s := range net.slotSizes {
		total += s
	}
	t.Logf("%d layers, %d activation slots of %.1f MB in all, im2col %.1f MB, %.1f M multiply-adds",
		len(net.layers), len(net.slotSizes), float64(4*total)/1e6, float64(4*net.colSize)/1e6, float64(net.macs)/1e6)
}

// checkOpCounts checks how many operators of each kind m has.
func checkOpCounts(t *testing.T, m *tfModel, want map[tfOp]int) {
	t.Helper()
	counts := map[tfOp]int{}
	for _, op := range m.operators {
		counts[op.op]++
	}
	if len(counts) != len(want) {
		t.Errorf("operators %v, want %v", counts, want)
	}
	for op, n := range want {
		if counts[op] != n {
			t.Errorf("%d %v operators, want %d", counts[op], op, n)
		}
	}
}

// gridWant is a feature map a network must offer: its shape and the start
// of its tensor's name.
type gridWant struct {
	g       Grid
	h, w, d int
	name    string
}

// checkGrids checks the feature maps of net, the network of the known
// encoder k, and that k knows their depths.
func checkGrids(t *testing.T, net *network, k *KnownEncoder, grids []gridWant) {
	t.Helper()
	for _, g := range grids {
		info := net.grids[g.g]
		if !info.ok || info.h != g.h || info.w != g.w || info.d != g.d || !strings.HasPrefix(info.name, g.name) {
			t.Errorf("%v: %+v, want %d×%d×%d named %s…", g.g, info, g.h, g.w, g.d, g.name)
		}
		if d := k.Depth(g.g); d != info.d {
			t.Errorf("%s.Depth(%v) = %d, the network has %d", k.Name, g.g, d, info.d)
		}
	}
}

// Dev photos of Flickr8k that plainly show one thing, chosen by looking at
// them, with the ImageNet labels a person would accept for each.
var labelledPhotos = []labelledPhoto{
	{"1130369873_d80a1aa59c.jpg", "a brown dog running through water", isDog},
	{"3287969199_08e775d896.jpg", "a heron in flight over water", labelIn("little blue heron", "American egret")},
	{"2520909293_9bb7f7364e.jpg", "a rider in the air on a BMX bike", labelIn("mountain bike", "bicycle-built-for-two")},
	{"3165123595_8db9f918bf.jpg", "ski patrollers skiing down a slope", labelIn("ski")},
	{"3563673070_71fa0903ed.jpg", "a man paddling a red kayak", labelIn("canoe", "paddle")},
	{"1579206585_5ca6a24db0.jpg", "a woman playing an electric guitar on stage", labelIn("electric guitar", "acoustic guitar")},
}

// isDog accepts the 118 dog breeds, ImageNet classes 151–268, which are
// 152–269 with the background class first.
func isDog(index int, _ string) bool { return index >= 152 && index <= 269 }

// labelIn accepts labels whose first name is one of names.
func labelIn(names ...string) func(int, string) bool {
	return func(_ int, label string) bool {
		first, _, _ := strings.Cut(label, ",")
		return slices.Contains(names, first)
	}
}

func TestMobileNetV2Labels(t *testing.T) {
	model := mobileNetPath(t)
	labels, err := ReadLabels(shareddata.Path(t, "mobilenet/imagenet_labels.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(labels) != 1001 || labels[0] != "background" {
		t.Fatalf("%d labels starting %q, want 1001 starting with background", len(labels), labels[0])
	}
	images := shareddata.Path(t, "flickr8k/images")
	withKernels(t, func(t *testing.T) {
		enc, err := LoadEncoder(model, nil)
		if err != nil {
			t.Fatal(err)
		}
		if s := scoreLabels(t, enc, labels, images, labelledPhotos); len(s.misses) > 0 {
			t.Errorf("top-1 labels that are not acceptable: %v", s.misses)
		}
	})
}

// TestMobileNetV2Consistency checks that the entry points agree with each
// other and that thread count and kernel choice do not change the result
// beyond float rounding.
func TestMobileNetV2Consistency(t *testing.T) {
	model := mobileNetPath(t)
	img, _, err := DecodeFile(shareddata.Path(t, "flickr8k/images/"+labelledPhotos[0].file), nil)
	if err != nil {
		t.Fatal(err)
	}
	one, err := LoadEncoder(model, &EncoderOptions{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	pre, err := one.NewPreprocessor(nil)
	if err != nil {
		t.Fatal(err)
	}
	x, err := pre.Tensor(img)
	if err != nil {
		t.Fatal(err)
	}
	features, probs, err := one.Encode(x, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(features) != 49*1280 || len(probs) != 1001 {
		t.Fatalf("Encode: %d features, %d probabilities; want 49×1280, 1001", len(features), len(probs))
	}
	lo, hi, zeros := float32(math.Inf(1)), float32(math.Inf(-1)), 0
	for _, v := range features {
		lo, hi = min(lo, v), max(hi, v)
		if v == 0 {
			zeros++
		}
	}
	if lo < 0 || hi > 6 || hi == 0 {
		t.Errorf("ReLU6 features span [%v, %v], want within [0, 6] and not all zero", lo, hi)
	}
	t.Logf("GridFinal features in [%v, %v], %.0f%% zeros", lo, hi, 100*float64(zeros)/float64(len(features)))

	four, err := LoadEncoder(model, &EncoderOptions{Threads: 4})
	if err != nil {
		t.Fatal(err)
	}
	f4, err := four.Features(nil, x)
	if err != nil {
		t.Fatal(err)
	}
	if i := closeTo(f4, features, 0); i >= 0 {
		t.Errorf("4 threads: feature %d = %v, 1 thread %v; want identical", i, f4[i], features[i])
	}
	p4, err := four.Clone().Classify(nil, x)
	if err != nil {
		t.Fatal(err)
	}
	if i := closeTo(p4, probs, 0); i >= 0 {
		t.Errorf("4 threads: probability %d = %v, 1 thread %v; want identical", i, p4[i], probs[i])
	}

	mid, err := LoadEncoder(model, &EncoderOptions{Grid: GridBlock13})
	if err != nil {
		t.Fatal(err)
	}
	f13, err := mid.Features(nil, x)
	if err != nil {
		t.Fatal(err)
	}
	if h, w, d := mid.GridShape(); h*w*d != len(f13) || h != 14 || w != 14 || d != 576 {
		t.Errorf("GridBlock13: shape %d×%d×%d, %d values", h, w, d, len(f13))
	}

	if useAVX2 {
		useAVX2 = false
		defer func() { useAVX2 = true }()
		fGo, pGo, err := one.Encode(x, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if i := closeTo(fGo, features, 1e-3); i >= 0 {
			t.Errorf("Go kernels: feature %d = %v, assembly %v", i, fGo[i], features[i])
		}
		if i := closeTo(pGo, probs, 1e-3); i >= 0 {
			t.Errorf("Go kernels: probability %d = %v, assembly %v", i, pGo[i], probs[i])
		}
	}
}
