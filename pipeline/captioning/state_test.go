package captioning

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestCheckpointStateCompat reads the training state as checkpoints have
// stored it since before the shared training loop, and writes it back
// with the same fields and values.
func TestCheckpointStateCompat(t *testing.T) {
	const old = `{"epoch":3,"batch":1,"step":6,"best":{"bleu":[0.5,0.4,0.3,0.2],"meteor":0.1,"rougel":0.3,"ciderd":0.25},` +
		`"best_value":0.2,"best_epoch":2,"best_step":4,"bad_evals":1,"lr_scale":0.5,"seconds":9.5,"baseline":0.75,` +
		`"history":[{"epoch":1,"step":2,"loss":3.5,"scores":{"bleu":[0.1,0.1,0.1,0.1],"meteor":0,"rougel":0,"ciderd":0}}],"objective":"cross-entropy"}`
	var st trainState
	if err := json.Unmarshal([]byte(old), &st); err != nil {
		t.Fatal(err)
	}
	if st.Epoch != 3 || st.Batch != 1 || st.Step != 6 || st.BestValue != 0.2 || st.BestEpoch != 2 || st.BestStep != 4 ||
		st.BadEvals != 1 || st.LRScale != 0.5 || st.Seconds != 9.5 || st.Baseline != 0.75 || len(st.History) != 1 || st.Objective != objectiveXent {
		t.Errorf("state %+v from %s", st, old)
	}
	js, err := json.Marshal(&st)
	if err != nil {
		t.Fatal(err)
	}
	var got, want map[string]any
	if err := json.Unmarshal(js, &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(old), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("written back as\n%s\nwant the fields of\n%s", js, old)
	}
}
