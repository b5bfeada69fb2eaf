package compact

import "strings"

// Rule "Fences" of docs/robust.md, as it states it: a fence line right after the opener and right
// before the closer is a wrapper and is dropped; a fence opened on the line before the opener is
// closed by the first bare fence line (no info string) of the same character in the body; fences
// around the whole answer are outside the tags anyway.
//
// This file holds that rule; docs/robust.md and compact/robust.ts state and implement it too.

// fenceBefore returns the fence character (` or ~) when the last non-blank line before tag
// t's line, at most three lines up, is a fence line: the block is wrapped in a fence, and
// the first fence line of the same character in its body closes that one (rule "Fences").
// It returns 0 otherwise.
func (sc *scan) fenceBefore(t tag) byte {
	if len(sc.fences) == 0 {
		return 0
	}
	if c := sc.fenceRightBefore(t); c != 0 {
		return c
	}
	c, _ := sc.fenceLineBefore(t)
	return c
}

// fenceLineBefore is fenceBefore without its shortcut, with the start of the fence line: it
// reads the lines before t whether or not the scan collected fence lines there (it collects
// them only near summary openers).
func (sc *scan) fenceLineBefore(t tag) (byte, int) {
	if !t.is(atLineStart) || !sc.mayHoldFence() || TrimJS(sc.text[t.line:t.start]) != "" {
		return 0, -1
	}
	l := int(t.line)
	for n := 0; n < 3; n++ {
		if l = sc.prevLine(l); l < 0 {
			return 0, -1
		}
		if line := TrimJS(sc.text[l:sc.lineEnd(l)]); line != "" {
			return fenceOf(line).char, l
		}
	}
	return 0, -1
}

// bareFence reports a fence line without an info string: "```", not "```yaml".
func (sc *scan) bareFence(f fenceLine) bool {
	l := strings.TrimRight(TrimJS(sc.text[f.start:f.end]), string(f.char))
	return l == ""
}

// stripWrapperFence drops a fence line that opens the body and the one that closes it
// (rule "Fences").
func stripWrapperFence(body string) string {
	first, rest, ok := strings.Cut(body, "\n")
	if !ok || !isFenceLine(first) {
		return body
	}
	j := len(rest) // strings.TrimRight(rest, " \t\r\n") without building its set for each block
	for j > 0 && (rest[j-1] == ' ' || rest[j-1] == '\t' || rest[j-1] == '\r' || rest[j-1] == '\n') {
		j--
	}
	i := strings.LastIndexByte(rest[:j], '\n')
	last := TrimJS(rest[i+1:])
	if !isFenceLine(last) || countUpTo(rest, "```", 2) > 1 {
		return body
	}
	return TrimJS(rest[:max(i, 0)])
}

func isFenceLine(line string) bool { return fenceOf(line).char != 0 }

// fence is a code fence line: its character, 0 for a line that is no fence.
type fence struct{ char byte }

func fenceOf(line string) fence {
	l := TrimJS(line)
	switch {
	case strings.HasPrefix(l, "```"):
		return fence{'`'}
	case strings.HasPrefix(l, "~~~"):
		return fence{'~'}
	}
	return fence{}
}
