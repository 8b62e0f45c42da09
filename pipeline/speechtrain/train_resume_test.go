package speechtrain

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTrainResume stops a run after two epochs and resumes it for a
// third: the resumed run continues the step count and the log, and
// reports its throughput in hours of audio per hour.
func TestTrainResume(t *testing.T) {
	dir := t.TempDir()
	o := tinyTrainOptions(dir)
	o.Epochs, o.LogEvery = 2, 1
	if _, err := Train(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	o.Epochs = 3
	if _, err := Train(context.Background(), o); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("a second run without Resume: err %v, want one saying the checkpoint exists", err)
	}
	o.Resume = true
	sum, err := Train(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Epochs != 3 || sum.Steps != 3 || sum.Stopped != "reached 3 epochs" {
		t.Errorf("resumed run: %+v, want 3 epochs of one step", sum)
	}
	log, err := os.ReadFile(filepath.Join(dir, "train.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"resuming", "epoch 3 batch 1/1 step 3 loss", "h audio/h", "of audio per hour", "epoch 3 done in", "done (reached 3 epochs)"} {
		if !strings.Contains(string(log), want) {
			t.Errorf("train.log lacks %q:\n%s", want, log)
		}
	}
}

// TestCheckpointStateCompat reads the training state as checkpoints have
// always stored it, and writes it back the same.
func TestCheckpointStateCompat(t *testing.T) {
	const old = `{"epoch":3,"batch":2,"step":17,"best_cer":0.5,"best_wer":0.75,"best_epoch":2,"bad_epochs":1,"lr_scale":0.5,"seconds":12.5,"train_utts":6,"train_hours":0.01}`
	var c trainCheckpoint
	if err := json.Unmarshal([]byte(old), &c); err != nil {
		t.Fatal(err)
	}
	st := c.state()
	if st.Epoch != 3 || st.Batch != 2 || st.Step != 17 || st.BestValue != 0.5 || st.BestWER != 0.75 || st.BestEpoch != 2 ||
		st.BadEvals != 1 || st.LRScale != 0.5 || st.Seconds != 12.5 || st.TrainUtts != 6 || st.TrainHours != 0.01 {
		t.Errorf("state %+v from %s", st, old)
	}
	js, err := json.Marshal(st.checkpoint())
	if err != nil || string(js) != old {
		t.Errorf("written back as %s (%v), want %s", js, err, old)
	}
}
