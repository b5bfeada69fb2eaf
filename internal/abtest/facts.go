package abtest

import (
	"regexp"
	"strings"

	"github.com/compacteval/compacteval/eval"
)

func facts(fs []eval.Fact) []Fact {
	out := make([]Fact, len(fs))
	for i, f := range fs {
		out[i] = Fact{Kind: f.Kind, Text: f.Text, Weight: f.Weight}
	}
	return out
}

func boundaryFacts(fs []eval.WindowFact) []BoundaryFact {
	out := make([]BoundaryFact, len(fs))
	for i, f := range fs {
		out[i] = BoundaryFact{Fact: Fact{Kind: f.Kind, Text: f.Text, Weight: f.Weight}, Held: f.Held}
	}
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// tagPair finds an opening tag; its closing tag is looked for apart (RE2 has no
// backreferences).
var tagPair = regexp.MustCompile(`<([A-Za-z][\w-]*)>`)

// namedTags returns the tags an instruction asks the summary to be written in: summary
// when it names <summary> and </summary> (the seed's, and most prompts'), else every tag
// it names with both its opening and closing forms, in order of first mention.
func namedTags(instruction string) []string {
	var tags []string
	seen := map[string]bool{}
	for _, m := range tagPair.FindAllStringSubmatch(instruction, -1) {
		t := m[1]
		if t == "system-reminder" {
			continue // the frame the instruction is sent in, not a tag it asks the answer for
		}
		if !seen[t] && strings.Contains(instruction, "</"+t+">") {
			if t == "summary" {
				return []string{t}
			}
			tags = append(tags, t)
		}
		seen[t] = true
	}
	return tags
}

// tagged reports whether summary lies within a block of the answer that a tag the
// instruction names opens and closes: the extractor found it where the instruction asked
// for it, and not through a fallback (the whole answer, an opener never closed). An
// instruction that names no tag asks for none: every summary counts as tagged.
func tagged(answer, instruction, summary string) bool {
	tags := namedTags(instruction)
	if len(tags) == 0 {
		return true
	}
	summary = strings.TrimSpace(summary)
	for _, t := range tags {
		rest := answer
		for {
			_, after, ok := strings.Cut(rest, "<"+t+">")
			if !ok {
				break
			}
			block, next, closed := strings.Cut(after, "</"+t+">")
			if !closed {
				break
			}
			if strings.Contains(block, summary) {
				return true
			}
			rest = next
		}
	}
	return false
}
