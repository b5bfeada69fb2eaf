// Package textdiff renders differences between texts for tests and reports, on top of
// github.com/sergi/go-diff with its timeout off so that output does not change with load.
//
// Lines and Unified give line diffs. For word diffs, Edits turns go-diff's result into runs,
// NewLine makes one line of a word diff from its runs (joined, and marked as unchanged,
// added, removed or changed within), and Hunks groups any lines into hunks with context.
// The review and A/B review reports build their word diffs from these; each keeps its own
// word engine and its own idea of where a line ends.
package textdiff

import (
	"fmt"
	"strings"

	"github.com/compacteval/compacteval/compact"
	"github.com/sergi/go-diff/diffmatchpatch"
)

func newDMP() *diffmatchpatch.DiffMatchPatch {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0
	return dmp
}

// Lines returns a line-level diff of a and b, each line prefixed with " ", "-" or "+".
// Lines that do not end in "\n" are marked with a "\ no newline at end" line. If a == b,
// Lines returns "".
func Lines(a, b string) string {
	if a == b {
		return ""
	}
	dmp := newDMP()
	ca, cb, lines := dmp.DiffLinesToChars(a, b)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(ca, cb, false), lines)
	var out strings.Builder
	for _, e := range Edits(diffs) {
		prefix := e.Op
		if prefix == "=" {
			prefix = " "
		}
		text := e.Text
		for text != "" {
			line, rest, nl := strings.Cut(text, "\n")
			fmt.Fprintf(&out, "%s%q\n", prefix, line)
			if !nl {
				out.WriteString("\\ no newline at end\n")
			}
			text = rest
		}
	}
	return out.String()
}

// Unified returns Lines with only ctx unchanged lines kept around each change, and "@@" lines
// where unchanged lines were left out. If a == b, Unified returns "".
func Unified(a, b string, ctx int) string {
	full := Lines(a, b)
	if full == "" {
		return ""
	}
	lines := strings.SplitAfter(strings.TrimSuffix(full, "\n"), "\n")
	changed := func(l string) bool { return l[0] == '-' || l[0] == '+' || l[0] == '\\' }
	var out strings.Builder
	for _, h := range Hunks(lines, changed, ctx) {
		if h.Skipped > 0 {
			out.WriteString("@@\n")
		}
		for _, l := range h.Lines {
			out.WriteString(strings.TrimSuffix(l, "\n") + "\n")
		}
	}
	return out.String()
}

// Words returns the word-level differences of a and b after semantic cleanup.
func Words(a, b string) []diffmatchpatch.Diff {
	dmp := newDMP()
	diffs := dmp.DiffMain(a, b, false)
	return dmp.DiffCleanupSemantic(diffs)
}

// SplitLines splits s after every line terminator that compact.TerminatorLen knows, each kept at
// the end of its line. The last line may lack one; "" gives no lines.
func SplitLines(s string) []string {
	var ls []string
	start := 0
	for i := 0; i < len(s); {
		n := compact.TerminatorLen(s, i)
		if n == 0 {
			i++
			continue
		}
		i += n
		ls = append(ls, s[start:i])
		start = i
	}
	if start < len(s) {
		ls = append(ls, s[start:])
	}
	return ls
}

// EditDistance returns the Levenshtein distance between a and b, counted in bytes (the
// names it compares, flags and YAML keys, are ASCII).
func EditDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
