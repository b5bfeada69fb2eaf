package fuzz

// This file holds analysis-leak's oracle: which lines of a text are analysis.

import (
	"regexp"
	"strings"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/fuzz/drift"
)

// strictAnalysis returns the lines (trimmed, at least drift.MinAnalysisLine bytes) that the
// text holds only inside closed analysis blocks that nobody could read otherwise: an
// "<analysis>" line outside any summary block and fenced code, then lines without any tag or fence, then
// an "</analysis>" line. A line that also stands outside such a block, whole or as part of
// a line, is not returned; an analysis block inside a summary block is part of that summary,
// as drift counts it. Each line maps to where its block stands (blockPlace).
func strictAnalysis(text string) map[string]string {
	ls := lines(text)
	inside := map[string]string{}
	outside := map[string]bool{}
	var outsideLines []string // the lines outside the blocks, as written
	var openers []int         // the lines that are a "<summary>" tag
	for i, l := range ls {
		if isTag(l, "<summary>") {
			openers = append(openers, i)
		}
	}
	inSummary := false // after a "<summary>" line and before its "</summary>" line
	fence := false     // inside fenced code, where an analysis block is quoted
	for i := 0; i < len(ls); i++ {
		switch {
		case isTag(ls[i], "<summary>"):
			inSummary = true
		case isTag(ls[i], "</summary>"):
			inSummary = false
		case isFence(ls[i]):
			fence = !fence
		}
		if inSummary || fence || !isTag(ls[i], "<analysis>") {
			outside[strings.TrimSpace(ls[i])] = true
			outsideLines = append(outsideLines, ls[i])
			continue
		}
		j := i + 1
		for j < len(ls) && !anyTag.MatchString(ls[j]) && !strings.Contains(ls[j], "```") && !strings.Contains(ls[j], "~~~") {
			j++
		}
		if j == len(ls) || !isTag(ls[j], "</analysis>") {
			outside[strings.TrimSpace(ls[i])] = true
			outsideLines = append(outsideLines, ls[i])
			continue
		}
		place := blockPlace(openers, i, j)
		for _, l := range ls[i+1 : j] {
			if t := strings.TrimSpace(l); len(t) >= drift.MinAnalysisLine {
				if _, dup := inside[t]; !dup {
					inside[t] = place
				}
			}
		}
		i = j
	}
	rest := strings.Join(outsideLines, "\n")
	for l := range inside {
		if outside[l] || strings.Contains(rest, l) {
			delete(inside, l) // the text says it outside the analysis too: the summary may
		}
	}
	return inside
}

// blockPlace names where an analysis block on lines start to end stands among the
// "<summary>" lines of a text: "alone" (there is none), "before-summary",
// "after-summary" or "between-summaries".
func blockPlace(openers []int, start, end int) string {
	before, after := false, false
	for _, o := range openers {
		before = before || o < start
		after = after || o > end
	}
	switch {
	case before && after:
		return "between-summaries"
	case before:
		return "after-summary"
	case after:
		return "before-summary"
	}
	return "alone"
}

// leakedLine returns a line of e's summary that is analysis by strictAnalysis, and where its
// block stands (blockPlace), or "".
func leakedLine(text string, e compact.Extraction) (line, place string) {
	if !e.OK {
		return "", ""
	}
	analysis := strictAnalysis(text)
	if len(analysis) == 0 {
		return "", ""
	}
	for _, l := range linesOf(e.Summary, text) {
		t := strings.TrimSpace(l)
		if p, ok := analysis[t]; ok {
			return t, p
		}
	}
	return "", ""
}

// analysisTag matches an analysis opener or closer in any spelling robust knows.
var analysisTag = regexp.MustCompile(`<[ \t]*(/?)[ \t]*` + analysisNames + `\b[^<>\n\r\x{85}\x{2028}\x{2029}]*>`)

// marksAnalysis reports a text that marks where its analysis starts and ends: an analysis
// opener and an analysis closer in any spelling outside fenced code. Inside a fence an
// analysis block may be quoted; with no closer, where the analysis stops is a guess (a line
// that opens with "<summary>" may be prose about the tag), and with no opener where it
// starts (after a summary with no closer, say); with no tag at all nothing tells the
// analysis from the summary.
func marksAnalysis(text string) bool {
	fence, opened := false, false
	for _, l := range lines(text) {
		if isFence(l) {
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		for _, m := range analysisTag.FindAllStringSubmatch(l, -1) {
			if m[1] == "/" && opened {
				return true
			}
			opened = opened || m[1] == ""
		}
	}
	return false
}
