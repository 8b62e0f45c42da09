// Package version says which release of attend a build is.
package version

import (
	"fmt"
	"runtime"
)

// Version is the release of attend this build comes from.
const Version = "v0.1.0-dev"

// Build is Version with the Go release and platform of the build,
// e.g. "v0.1.0-dev (go1.26.8 linux/amd64)".
func Build() string {
	return fmt.Sprintf("%s (%s %s/%s)", Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// ModelLine describes an embedded model for a version command:
// "model ID (embedded, N.N MB)".
func ModelLine(id string, size int) string {
	return fmt.Sprintf("model %s (embedded, %.1f MB)", id, float64(size)/1e6)
}
