module github.com/compacteval/compacteval

go 1.26

require (
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/sergi/go-diff v1.4.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
