// A module of its own that uses compacteval's public packages, as another project would:
// report.TestImportFromAnotherModule builds it.
module example.com/outside

go 1.26.0

require github.com/compacteval/compacteval v0.0.0

require (
	github.com/sergi/go-diff v1.4.5 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
)

replace github.com/compacteval/compacteval => ../../..
