package compact

import (
	"strconv"
	"strings"
)

// Path names the branch of the reference's extractSummary that decided an extraction.
type Path int

const (
	// PathNone is the zero Path, reported by no seed extraction; other extractors use it when
	// they take no branch at all.
	PathNone Path = iota
	// PathLineAnchored: a "<summary>" line and a "</summary>" line, tags alone on their lines.
	PathLineAnchored
	// PathLoose: "<summary>" ... "</summary>" anywhere, after closed analysis blocks are removed.
	PathLoose
	// PathWhole: no block; the whole text minus closed analysis blocks.
	PathWhole
	// PathBlock: another extractor's closed summary block.
	PathBlock
	// PathOpenerToEnd: a summary opener without a closer; the text after it.
	PathOpenerToEnd
	// PathMarker: no tags; a marker that robust accepts instead ([summary], a Summary heading).
	PathMarker
	// PathUntagged: no summary block and no marker; robust's text minus analysis blocks.
	PathUntagged
	// PathRefused: the agent refuses the answer (claude-code@2.1.332 without a summary
	// block); never OK.
	PathRefused
)

var pathNames = [...]string{"none", "line-anchored", "loose", "whole", "block", "opener-to-end", "marker", "untagged", "refused"}

// String returns the path's name as used in goldens, reports and the pipe protocol.
func (p Path) String() string {
	if p < 0 || int(p) >= len(pathNames) {
		return "Path(" + strconv.Itoa(int(p)) + ")"
	}
	return pathNames[p]
}

// ParsePath returns the Path named s, and false for an unknown name.
func ParsePath(s string) (Path, bool) {
	for i, name := range pathNames {
		if name == s {
			return Path(i), true
		}
	}
	return PathNone, false
}

// MarshalText encodes the path as its name.
func (p Path) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText decodes a path name.
func (p *Path) UnmarshalText(b []byte) error {
	v, ok := ParsePath(string(b))
	if !ok {
		return &unknownPathError{name: string(b)}
	}
	*p = v
	return nil
}

type unknownPathError struct{ name string }

func (e *unknownPathError) Error() string { return "unknown extraction path " + strconv.Quote(e.name) }

// Extraction is the result of an extractor: the summary, whether one was found, and the branch
// that decided it. When OK is false, Summary is empty; Path still tells which branch gave up
// (a block whose body trims to nothing ends the search).
type Extraction struct {
	Summary string
	OK      bool
	Path    Path
	// Capped is true when ExtractClaudeCode stopped expanding JavaScript replacement
	// patterns at MaxOutput, so that Summary is not what upstream returns.
	Capped bool
}

const (
	summaryOpen   = "<summary>"
	summaryClose  = "</summary>"
	analysisOpen  = "<analysis>"
	analysisClose = "</analysis>"
)

// ExtractSummary returns the summary in a model's response to Instruction, as the reference's
// extractSummary does; ok is false exactly where the reference returns undefined.
func ExtractSummary(text string) (summary string, ok bool) {
	e := Extract(text)
	return e.Summary, e.OK
}

// Extract is ExtractSummary that also reports the branch taken. It runs in time linear in
// len(text).
func Extract(text string) Extraction {
	// Both blocks need a closer; a forward search for it is much faster than the backward
	// searches below on a long text without one (a looping model's answer).
	hasCloser := strings.Contains(text, summaryClose)
	if hasCloser {
		if body, ok := lineAnchoredBlock(text); ok {
			return found(body, PathLineAnchored)
		}
	}
	rest := RemoveAnalysisBlocks(text)
	if hasCloser {
		if body, ok := looseBlock(rest); ok {
			return found(body, PathLoose)
		}
	}
	return found(rest, PathWhole)
}

func found(body string, p Path) Extraction {
	s := TrimJS(body)
	return Extraction{Summary: s, OK: s != "", Path: p}
}

// lineAnchoredBlock finds what the reference's
// /^[ \t]*<summary>[ \t]*\n([\s\S]*)\n[ \t]*<\/summary>[ \t]*$/m captures. The leftmost match
// starts at the first opener line; the greedy body then runs to the last closer line, so the
// match exists exactly when that last closer line comes after the first opener line.
func lineAnchoredBlock(s string) (body string, ok bool) {
	start, ok := firstOpenerLine(s)
	if !ok {
		return "", false
	}
	end, ok := lastCloserLine(s)
	if !ok || end < start {
		return "", false
	}
	return s[start:end], true
}

// firstOpenerLine returns the offset just past the "\n" of the first line that reads
// [ \t]*<summary>[ \t]* and starts at a JavaScript line start.
func firstOpenerLine(s string) (bodyStart int, ok bool) {
	for from := 0; ; {
		i := strings.Index(s[from:], summaryOpen)
		if i < 0 {
			return 0, false
		}
		i += from
		from = i + len(summaryOpen)
		if !isLineStart(s, skipBlanksBack(s, i)) {
			continue
		}
		j := skipBlanks(s, from)
		if j < len(s) && s[j] == '\n' {
			return j + 1, true
		}
	}
}

// lastCloserLine returns the offset of the "\n" that precedes the last line reading
// [ \t]*</summary>[ \t]* and ending at a JavaScript line end.
func lastCloserLine(s string) (newline int, ok bool) {
	for end := len(s); ; {
		i := strings.LastIndex(s[:end], summaryClose)
		if i < 0 {
			return 0, false
		}
		end = i
		if !isLineEnd(s, skipBlanks(s, i+len(summaryClose))) {
			continue
		}
		if j := skipBlanksBack(s, i); j > 0 && s[j-1] == '\n' {
			return j - 1, true
		}
	}
}

// skipBlanks returns the first offset at or after i that is not a space or a tab.
func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// skipBlanksBack returns the smallest j <= i such that s[j:i] is all spaces and tabs.
func skipBlanksBack(s string, i int) int {
	for i > 0 && (s[i-1] == ' ' || s[i-1] == '\t') {
		i--
	}
	return i
}

// RemoveAnalysisBlocks returns s without its closed analysis blocks, as the reference's
// text.replace(/<analysis>[\s\S]*?<\/analysis>/g, "") does: each "<analysis>" up to the first
// "</analysis>" after it, scanning on from there. An opener with no closer after it stays.
func RemoveAnalysisBlocks(s string) string {
	var b strings.Builder
	copied := 0
	for from := 0; ; {
		i := strings.Index(s[from:], analysisOpen)
		if i < 0 {
			break
		}
		i += from
		j := strings.Index(s[i+len(analysisOpen):], analysisClose)
		if j < 0 {
			break
		}
		j += i + len(analysisOpen) + len(analysisClose)
		if copied == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[copied:i])
		copied, from = j, j
	}
	if copied == 0 {
		return s
	}
	b.WriteString(s[copied:])
	return b.String()
}

// looseBlock finds what /<summary>([\s\S]*)<\/summary>/ captures: from the first opener to the
// last closer after it.
func looseBlock(s string) (body string, ok bool) {
	i := strings.Index(s, summaryOpen)
	if i < 0 {
		return "", false
	}
	j := strings.LastIndex(s, summaryClose)
	if j < i+len(summaryOpen) {
		return "", false
	}
	return s[i+len(summaryOpen) : j], true
}
