package gate

import (
	"fmt"

	"github.com/compacteval/compacteval/fuzz"
	"go.yaml.in/yaml/v3"
)

// FuzzConfig is the fuzz: section of gate.yaml: the kinds of failure compacteval fuzz
// accepts of each extractor, so that a run fails only on a new kind.
//
//	fuzz:
//	  accept:
//	    "module:src/compaction.ts": [superlinear-time:summary-openers, tag-kept]
//
// An entry is a kind (fuzz.Kinds: tag-kept:summary) or a property, which accepts each of
// its kinds (tag-kept).
type FuzzConfig struct {
	Accept map[string][]string `yaml:"accept"`
}

// Accepted returns the kinds and properties accepted of the extractor named name.
func (c FuzzConfig) Accepted(name string) []string {
	return c.Accept[name]
}

// checkFuzz returns an error at the line of the first entry of fuzz.accept, in file order,
// that names no kind or property fuzz reports, with the closest one.
func checkFuzz(doc *yaml.Node, bad func(int, string, ...any) error) error {
	accept := valueAt(doc, "fuzz", "accept")
	if accept == nil || accept.Kind != yaml.MappingNode {
		return nil
	}
	known := append(append([]string{}, fuzz.Properties...), fuzz.Kinds()...)
	for i := 0; i+1 < len(accept.Content); i += 2 {
		name, list := accept.Content[i].Value, resolve(accept.Content[i+1])
		if list == nil || list.Kind != yaml.SequenceNode {
			continue // the decoder has refused it already
		}
		for _, item := range list.Content {
			item = resolve(item)
			if item == nil || fuzz.KnownKind(item.Value) {
				continue
			}
			hint := ""
			if best := closestKey(item.Value, known); best != "" {
				hint = fmt.Sprintf("did you mean %q? ", best)
			}
			return bad(item.Line, "fuzz.accept.%s names %q, which is no kind of fuzz failure (%sa kind is a property, or a property and its detail: %s)",
				name, item.Value, hint, "tag-kept, tag-kept:summary, superlinear-time:summary-openers; docs/fuzzing.md lists them")
		}
	}
	return nil
}
