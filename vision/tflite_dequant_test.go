package vision

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"
)

func TestDequantize(t *testing.T) {
	i32 := func(v ...int32) []byte {
		b := make([]byte, 4*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
		}
		return b
	}
	f32 := func(v ...float32) []byte {
		b := make([]byte, 4*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
		}
		return b
	}
	cases := []struct {
		name string
		t    tfTensor
		want []float32
	}{
		{"uint8 per tensor", tfTensor{typ: tfUint8, shape: []int{3}, data: []byte{0, 128, 255},
			quant: &tfQuant{scale: []float32{0.5}, zero: []int64{128}}}, []float32{-64, 0, 63.5}},
		// int8, one scale per output channel (dimension 0 of [2 1 1 2]).
		{"int8 per channel", tfTensor{typ: tfInt8, shape: []int{2, 1, 1, 2}, data: []byte{0xff, 2, 0x80, 127},
			quant: &tfQuant{scale: []float32{1, 0.25}, zero: []int64{0, -1}, dim: 0}}, []float32{-1, 2, -31.75, 32}},
		// Per channel along the last dimension, as depthwise filters are.
		{"uint8 last dimension", tfTensor{typ: tfUint8, shape: []int{1, 2, 2}, data: []byte{10, 10, 20, 20},
			quant: &tfQuant{scale: []float32{1, 2}, zero: []int64{10, 0}, dim: 2}}, []float32{0, 20, 10, 40}},
		{"int32 bias", tfTensor{typ: tfInt32, shape: []int{2}, data: i32(-4, 1000),
			quant: &tfQuant{scale: []float32{0.25}, zero: []int64{0}}}, []float32{-1, 250}},
		{"int32 shape, no quantization", tfTensor{typ: tfInt32, shape: []int{2}, data: i32(1, 1001)}, []float32{1, 1001}},
		{"float32", tfTensor{typ: tfFloat32, shape: []int{2}, data: f32(1.5, -2)}, []float32{1.5, -2}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := dequantize(&tc.t)
			if err != nil || !slices.Equal(got, tc.want) {
				t.Errorf("dequantize = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestInputNorm(t *testing.T) {
	cases := []struct {
		name string
		t    tfTensor
		// the input value of byte 0 and byte 255
		lo, hi float32
	}{
		{"uint8 MobileNet", tfTensor{typ: tfUint8, quant: &tfQuant{scale: []float32{1.0 / 128}, zero: []int64{128}}}, -1, 127.0 / 128},
		// int8 stores byte − 128: zero point −128 means byte 0 is 0.
		{"int8", tfTensor{typ: tfInt8, quant: &tfQuant{scale: []float32{1.0 / 255}, zero: []int64{-128}}}, 0, 1},
		{"float32", tfTensor{typ: tfFloat32}, -1, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n, err := inputNorm(&tc.t)
			if err != nil {
				t.Fatal(err)
			}
			lo, hi := (0-n.Mean[0])/n.Std[0], (1-n.Mean[0])/n.Std[0]
			if math.Abs(float64(lo-tc.lo)) > 1e-6 || math.Abs(float64(hi-tc.hi)) > 1e-6 {
				t.Errorf("bytes 0 and 255 map to %v, %v; want %v, %v", lo, hi, tc.lo, tc.hi)
			}
		})
	}
	if _, err := inputNorm(&tfTensor{name: "x", typ: tfInt32}); err == nil {
		t.Error("int32 input: no error")
	}
}
