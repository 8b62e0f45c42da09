package safetensors

import (
	"fmt"

	"github.com/attend-go/attend/internal/atomicfile"
)

// WriteFile writes f to the file at path as Write does, atomically: the
// bytes go to a new temporary file in the same directory, which is synced
// to disk, closed and renamed over path, and then the directory is synced
// so that the rename itself survives a crash. Readers of path see the old
// file or the new one, never a mix. On any error the temporary file is
// removed and an existing file at path is left untouched. The file is
// created with mode 0666 before the umask, as by os.Create.
func WriteFile(path string, f *File, dtype DType) error {
	p, err := planWrite(f, dtype)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, p.writeTo, nil); err != nil {
		return fmt.Errorf("models: %w", err)
	}
	return nil
}
