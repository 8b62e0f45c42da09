// Package docs holds attend's documentation: the Markdown pages that
// README.md links to. It has no code; its tests keep the pages honest:
// every relative link of README.md and docs/*.md names a file that exists
// (and a heading of it, for a link with #anchor), every page is reachable
// from README.md, and README.md stays a short front door. The command
// lines the pages show are checked against the tools' flags by the tests
// of cmd/asr and cmd/caption (TestDocsCommandsParse).
package docs
