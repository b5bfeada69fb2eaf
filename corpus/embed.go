package corpus

import (
	"embed"
	"io/fs"
)

// bundled holds the corpus that ships in every compacteval binary: the cases and the seed
// goldens, so that compacteval run works in any folder.
//
//go:embed cases golden/seed
var bundled embed.FS

// EmbeddedLabel names the bundled corpus in reports and problems.
const EmbeddedLabel = "embedded"

// Embedded returns the bundled cases as a file system of category folders.
func Embedded() fs.FS {
	sub, err := fs.Sub(bundled, "cases")
	if err != nil {
		panic("corpus: embedded cases: " + err.Error()) // a broken build, not input
	}
	return sub
}

// EmbeddedGolden returns the bundled goldens: golden/<extractor>/<id>.txt for seed.
func EmbeddedGolden() fs.FS {
	sub, err := fs.Sub(bundled, "golden")
	if err != nil {
		panic("corpus: embedded goldens: " + err.Error())
	}
	return sub
}
