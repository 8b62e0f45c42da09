package mpi

import (
	"errors"
	"testing"
)

func TestLaunched(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want int
	}{
		{"none", nil, 0},
		{"openmpi", map[string]string{"OMPI_COMM_WORLD_SIZE": "4"}, 4},
		{"pmix", map[string]string{"PMIX_SIZE": "8"}, 8},
		{"pmi", map[string]string{"PMI_SIZE": "2"}, 2},
		{"garbage", map[string]string{"PMI_SIZE": "two"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, v := range launcherSize {
				t.Setenv(v, "")
			}
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			if got := Launched(); got != tc.want {
				t.Errorf("Launched() = %d, want %d", got, tc.want)
			}
		})
	}
}

func TestInitWithoutTag(t *testing.T) {
	if Built {
		t.Skip("built with the mpi tag")
	}
	if _, err := Init(); !errors.Is(err, ErrNotBuilt) {
		t.Fatalf("Init() error %v, want ErrNotBuilt", err)
	}
}
