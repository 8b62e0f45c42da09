package speechmodel

import (
	"github.com/attend-go/attend/internal/version"
	"github.com/attend-go/attend/models/asr"
)

// VersionInfo is what "asr version" prints after the tool's name: the
// build and the embedded model's id (name and content digest, the id
// batch records carry).
func VersionInfo() string {
	return version.Build() + "\n" + version.ModelLine(asr.DefaultID, asr.DefaultSize)
}
