package models_test

import (
	"encoding/json"
	"fmt"
	"log"

	"github.com/attend-go/attend/models"
)

// Average the weights of three snapshots of one training run.
func ExampleAverage() {
	snapshot := func(step int, w ...float32) *models.File {
		return &models.File{
			Kind:    "asr",
			Config:  json.RawMessage(`{"hidden":2}`),
			Vocab:   []string{"<eos>", "a"},
			Source:  fmt.Sprintf("snapshot-%d.safetensors", step),
			Tensors: []models.Tensor{{Name: "out.w", Shape: []int{2}, Data: w}},
		}
	}
	avg, err := models.Average([]*models.File{
		snapshot(100, 0.5, -1),
		snapshot(200, 1.0, -2),
		snapshot(300, 1.5, 0),
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(avg.Tensors[0].Name, avg.Tensors[0].Data)
	fmt.Println(avg.Extra[models.AveragedFromKey])
	// Output:
	// out.w [1 -1]
	// ["snapshot-100.safetensors","snapshot-200.safetensors","snapshot-300.safetensors"]
}
