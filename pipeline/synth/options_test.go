package synth

import (
	"strings"
	"testing"
)

func TestRangeSet(t *testing.T) {
	tests := []struct {
		name, in string
		want     Range
		err      string
	}{
		{"pair", "0.8,1.2", Range{0.8, 1.2}, ""},
		{"spaces", " 10 , 40 ", Range{10, 40}, ""},
		{"single value", "20", Range{20, 20}, ""},
		{"negative", "-6,-1", Range{-6, -1}, ""},
		{"reversed", "2,1", Range{}, "MIN ≤ MAX"},
		{"not a number", "a,b", Range{}, "want MIN,MAX"},
		{"empty", "", Range{}, "want MIN,MAX"},
		{"infinite", "1,inf", Range{}, "finite"},
		{"nan", "nan", Range{}, "finite"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var r Range
			err := r.Set(tc.in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Set(%q) = %v, want error containing %q", tc.in, err, tc.err)
				}
				return
			}
			if err != nil || r != tc.want {
				t.Fatalf("Set(%q) = %v, %v; want %v", tc.in, r, err, tc.want)
			}
			var back Range
			if err := back.Set(r.String()); err != nil || back != r {
				t.Errorf("String round trip %q gave %v, %v", r.String(), back, err)
			}
		})
	}
}

func TestOptionsValidate(t *testing.T) {
	tests := []struct {
		name string
		o    Options
		err  string
	}{
		{"zero value", Options{}, ""},
		{"all fractions", Options{Reverb: 1, Noise: 0.5, Telephone: 0.2}, ""},
		{"fraction above one", Options{Noise: 1.5}, "noise fraction 1.5"},
		{"negative fraction", Options{Reverb: -0.1}, "reverb fraction"},
		{"tempo too slow", Options{Tempo: Range{0.1, 1}}, "tempo range"},
		{"positive peak", Options{Peak: Range{-3, 3}}, "peak range"},
		{"reversed snr", Options{SNR: Range{40, 10}}, "snr range"},
		{"zero rt60", Options{RT60: Range{0, 0.5}}, "rt60 range"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.o.Validate()
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("Validate: %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("Validate = %v, want error containing %q", err, tc.err)
			}
		})
	}
}
