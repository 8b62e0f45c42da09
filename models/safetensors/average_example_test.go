package safetensors_test

import (
	"encoding/json"
	"fmt"
	"log"

	"github.com/attend-go/attend/models/safetensors"
)

// Average the weights of three snapshots of one training run.
func ExampleAverage() {
	snapshot := func(step int, w ...float32) *safetensors.File {
		return &safetensors.File{
			Kind:    "asr",
			Config:  json.RawMessage(`{"hidden":2}`),
			Vocab:   []string{"<eos>", "a"},
			Source:  fmt.Sprintf("snapshot-%d.safetensors", step),
			Tensors: []safetensors.Tensor{{Name: "out.w", Shape: []int{2}, Data: w}},
		}
	}
	avg, err := safetensors.Average([]*safetensors.File{
		snapshot(100, 0.5, -1),
		snapshot(200, 1.0, -2),
		snapshot(300, 1.5, 0),
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(avg.Tensors[0].Name, avg.Tensors[0].Data)
	fmt.Println(avg.Extra[safetensors.AveragedFromKey])
	// Output:
	// out.w [1 -1]
	// ["snapshot-100.safetensors","snapshot-200.safetensors","snapshot-300.safetensors"]
}
