package captioning

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/attend-go/attend/pipeline/internal/snapshottest"
)

// TestTrainSnapshots trains three epochs (two steps each) keeping two
// snapshots: those of the last two evaluations remain, with the features
// note and no training state. A fresh run over them with Overwrite
// replaces them.
func TestTrainSnapshots(t *testing.T) {
	dir := t.TempDir()
	o := tinyOptions(dir)
	o.Epochs, o.Snapshots = 3, 2
	if _, err := Train(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	snap := snapshottest.Check(t, dir, filepath.Join(dir, lastName), CheckModel, 4, 6)
	if snap.Extra[featuresKey] == "" || snap.Extra[stateKey] != "" {
		t.Errorf("snapshot metadata %q, want the features note and no training state", snap.Extra)
	}

	o.Epochs, o.Overwrite = 1, true
	if _, err := Train(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	snapshottest.CheckReplaced(t, dir, 2, 2)
}
