package pipeline

// Version is the release of attend this build comes from.
const Version = "v0.1.0-dev"
