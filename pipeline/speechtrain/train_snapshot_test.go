package speechtrain

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/pipeline/internal/snapshottest"
	"github.com/attend-go/attend/pipeline/speechmodel"
	"github.com/attend-go/attend/pipeline/trainloop"
)

// tinyTrainOptions trains a tiny model on the fixture's six training
// utterances (one batch of 4 an epoch, run as two replicas of 2),
// scoring one held-out speaker.
func tinyTrainOptions(out string) TrainOptions {
	return TrainOptions{
		Train: []string{filepath.Join("..", "..", "testdata", "speech", "manifest.tsv")}, DevSpeakers: 1, MaxDev: 2,
		Setup:    trainloop.Setup{OutDir: out, BatchSize: 4, Epochs: 3, Workers: 1, Seed: 1},
		Replicas: 2,
		Config:   asr.Config{ListenerHidden: 16, SpellerHidden: 16, Embed: 8, AttentionDim: 8, LocationFilters: 2, LocationWidth: 5, CTCWeight: 0.3, LabelSmoothing: 0.1, Dropout: 0.2},
	}
}

// TestTrainSnapshots trains three epochs (one step each) keeping two
// snapshots: those of the last two evaluations remain, with no
// metadata. A fresh run over them with Overwrite replaces them.
func TestTrainSnapshots(t *testing.T) {
	dir := t.TempDir()
	o := tinyTrainOptions(dir)
	o.Snapshots = 2
	if _, err := Train(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	snap := snapshottest.Check(t, dir, filepath.Join(dir, lastName), speechmodel.CheckModel, 2, 3)
	if len(snap.Extra) != 0 {
		t.Errorf("snapshot metadata %q, want none (no training state)", snap.Extra)
	}

	o.Epochs, o.Overwrite = 1, true
	if _, err := Train(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	snapshottest.CheckReplaced(t, dir, 2, 1)
}
