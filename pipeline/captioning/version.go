package captioning

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/attend-go/attend/internal/version"
	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/vision"
)

// VersionInfo is what "caption version" prints after the tool's name: the
// build, the embedded decoder's id (name and content digest, the id batch
// records carry) and the encoder that model needs (DefaultEncoder):
// where it was found ($ATTEND_ENCODER or the user cache, checked against
// its SHA-256), or that the first caption will download it. It never
// downloads.
func VersionInfo() string {
	s := version.Build() + "\n" + version.ModelLine(caption.DefaultID, caption.DefaultSize)
	k := DefaultEncoder()
	enc := fmt.Sprintf("encoder %s sha256:%s", k.File, k.SHA256[:12])
	path, err := vision.LocateEncoder(context.Background(), &vision.LocateOptions{Known: k, NoDownload: true})
	switch {
	case err == nil:
		return s + "\n" + enc + " (" + path + ")"
	case errors.Is(err, fs.ErrNotExist) && os.Getenv(vision.EncoderEnv) == "":
		return s + "\n" + enc + " (not found: the first caption downloads it from " + k.URL + "; or give -encoder or $" + vision.EncoderEnv + ")"
	default: // $ATTEND_ENCODER names a missing file, or the cached file is damaged
		return s + "\n" + enc + " (" + err.Error() + ")"
	}
}
