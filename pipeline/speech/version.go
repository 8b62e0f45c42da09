package speech

import (
	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/pipeline"
)

// VersionInfo is what "asr version" prints after the tool's name: the
// build and the embedded model's id (name and content digest, the id
// batch records carry).
func VersionInfo() string {
	return pipeline.BuildVersion() + "\n" + pipeline.ModelLine(asr.DefaultID, asr.DefaultSize)
}
