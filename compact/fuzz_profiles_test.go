package compact_test

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/compacteval/compacteval/compact"
)

// go test -run='^$' -fuzz='^FuzzExtractors$' -fuzztime=30s ./compact
//
// FuzzExtractors runs the extractor numbered which (modulo the number of extractors) and
// checks the guarantees its doc comment gives.
func FuzzExtractors(f *testing.F) {
	exs := compact.Extractors()
	for i, s := range seedTexts(f) {
		f.Add(s, uint8(i%len(exs)))
	}
	f.Fuzz(func(t *testing.T, text string, which uint8) {
		ex := exs[int(which)%len(exs)]
		e := ex.Extract(text)
		if again := ex.Extract(text); again != e {
			t.Fatalf("%s(%q) is not deterministic: %+v then %+v", ex.Name, text, e, again)
		}
		if !e.OK && e.Summary != "" {
			t.Fatalf("%s(%q) = %+v: no summary but a non-empty text", ex.Name, text, e)
		}
		if compact.TrimJS(e.Summary) != e.Summary {
			t.Fatalf("%s(%q).Summary = %q is not trimmed", ex.Name, text, e.Summary)
		}
		// Output is bounded by the input's length; only claude-code can grow it, through the
		// $&, $` and $' of its JavaScript replacement, which upstream has too.
		if limit := outputBound(ex.Name, len(text)); len(e.Summary) > limit {
			t.Fatalf("%s returned %d bytes for %d, over the bound %d", ex.Name, len(e.Summary), len(text), limit)
		}
		switch ex.Name {
		case "plain":
			if e.Summary != compact.TrimJS(text) {
				t.Fatalf("plain(%q) = %q, want the whole text trimmed", text, e.Summary)
			}
		case "vscode":
			if e.OK != strings.Contains(text, "<summary>") {
				t.Fatalf("vscode(%q).OK = %v, want whether the text holds <summary>", text, e.OK)
			}
			if !strings.Contains(text, e.Summary) {
				t.Fatalf("vscode(%q) = %q, not part of the text", text, e.Summary)
			}
		case "dust":
			if !strings.Contains(text, e.Summary) {
				t.Fatalf("dust(%q) = %q, not part of the text", text, e.Summary)
			}
		case "claude-code":
			if e.Path == compact.PathBlock && !strings.Contains(e.Summary, "Summary:") {
				t.Fatalf("claude-code(%q) = %q replaced a block without a Summary: line", text, e.Summary)
			}
		case "robust":
			checkRobust(t, text, e)
		}
	})
}

// outputBound is the most an extractor may return for an n-byte text: n, except for
// claude-code, where each "$&" (two bytes) in a summary block expands to the whole block and
// "$`" and "$'" to the text before and after it, so the output can grow with the square of
// the input, as Claude Code's own formatter does, up to compact.MaxOutput or 2n (and the
// rest of the block, kept as written).
func outputBound(extractor string, n int) int {
	if extractor == "claude-code" {
		return len("Summary:\n") + 2*n + min(n*n/2, max(compact.MaxOutput, 2*n))
	}
	return n
}

// knownTag matches the tags robust knows, in any case, with attributes and blanks, on one
// line (a tag broken across lines is text).
var knownTag = regexp.MustCompile(`(?i)<[ \t]*/?[ \t]*(summary|analysis|think|thinking|example)\b[^<>\n]*>`)

// checkRobust checks robust's guarantee on any text: a found summary is more than tags (a
// bare opener is never a summary).
func checkRobust(t *testing.T, text string, e compact.Extraction) {
	t.Helper()
	if e.OK && compact.TrimJS(knownTag.ReplaceAllString(e.Summary, "")) == "" {
		t.Fatalf("robust(%q) = %q: only tags, a bare opener", text, e.Summary)
	}
}

// go test -run='^$' -fuzz='^FuzzRobustNoLeak$' -fuzztime=30s ./compact
//
// FuzzRobustNoLeak puts a marker inside a closed analysis block with no tags in it, between
// any texts without code fences: robust never returns it.
func FuzzRobustNoLeak(f *testing.F) {
	texts := seedTexts(f)
	for i := 0; i+1 < len(texts); i += 2 {
		f.Add(texts[i], "I read the code.", texts[i+1], uint8(i))
	}
	f.Fuzz(func(t *testing.T, before, inside, after string, form uint8) {
		noFence := strings.NewReplacer("```", "", "~~~", "")
		before, after = noFence.Replace(before), noFence.Replace(after)
		inside = strings.ReplaceAll(inside, "<", "(")
		open := [...]string{"<analysis>", "<analysis>\n", "\n<analysis>\n", "<Analysis type=\"x\">\n"}[form%4]
		closer := [...]string{"</analysis>", "\n</analysis>\n", "</think>", "\n</ANALYSIS>"}[form/4%4]
		text := before + open + inside + " LEAK-MARKER " + closer + after
		if e := compact.ExtractRobust(text); strings.Contains(e.Summary, "LEAK-MARKER") && !strings.Contains(before+after, "LEAK-MARKER") {
			t.Fatalf("ExtractRobust(%q) = %q: leaked the closed analysis block", text, e.Summary)
		}
	})
}

// go test -run='^$' -fuzz='^FuzzRobustWellFormed$' -fuzztime=30s ./compact
//
// FuzzRobustWellFormed builds a well-formed answer from any analysis and summary text (no
// tags, "\n" line ends) and requires robust to return exactly what seed returns.
func FuzzRobustWellFormed(f *testing.F) {
	f.Add("I looked at main.go.", "1. Primary Request and Intent:\n   fix it", true)
	f.Fuzz(func(t *testing.T, analysis, body string, trailingNewline bool) {
		clean := strings.NewReplacer("<", "(", "\r", "", "\u2028", "", "\u2029", "", "\u0085", "")
		analysis, body = cleanAll(clean, analysis), cleanAll(clean, body)
		text := "<analysis>\n" + analysis + "\n</analysis>\n\n<summary>\n" + body + "\n" + sectionsBody + "\n</summary>"
		if trailingNewline {
			text += "\n"
		}
		if seed, robust := compact.Extract(text), compact.ExtractRobust(text); seed != robust {
			t.Fatalf("ExtractRobust(%q) = %+v, seed gives %+v", text, robust, seed)
		}
	})
}

// cleanAll applies r until nothing changes: taking out a "\r" can join the bytes around it
// into a U+2028 (E2 80, then A8), which the next pass takes out.
func cleanAll(r *strings.Replacer, s string) string {
	for {
		t := r.Replace(s)
		if t == s {
			return s
		}
		s = t
	}
}

const sectionsBody = "1. Primary Request and Intent:\n   a\n2. Key Technical Concepts:\n   b\n3. Files and Code Sections:\n   c\n" +
	"4. Errors and fixes:\n   d\n5. Problem Solving:\n   e\n6. All user messages:\n   f\n7. Pending Tasks:\n   g\n" +
	"8. Current Work:\n   h\n9. Optional Next Step:\n   i"

// go test -run='^$' -fuzz='^FuzzRobustKeepsBlock$' -fuzztime=30s ./compact
//
// FuzzRobustKeepsBlock puts a closed summary block with content on its own lines between
// any texts that hold no analysis or think tag, no code fence and no <example> wrapper:
// robust always finds a summary there (it never loses a block a careful reader sees).
func FuzzRobustKeepsBlock(f *testing.F) {
	texts := seedTexts(f)
	for i := 0; i+1 < len(texts); i += 2 {
		f.Add(texts[i], "the tests pass", texts[i+1], uint8(i))
	}
	f.Fuzz(func(t *testing.T, before, body, after string, form uint8) {
		clean := strings.NewReplacer("`", "'", "~", "-", "nalysis", "nalyzis", "NALYSIS", "NALYZIS", "hink", "hynk", "HINK", "HYNK",
			"xample", "xampel", "XAMPLE", "XAMPEL", "<", "(", "[", "(", "]", ")")
		before, after = clean.Replace(before), clean.Replace(after)
		if !utf8.ValidString(before) || !utf8.ValidString(after) {
			return // case folding in the replacer is byte-wise; invalid text adds nothing here
		}
		body = "Work done: " + clean.Replace(body)
		open := [...]string{"<summary>", "<SUMMARY>", "<summary type=\"final\">", "</analyzis><summary>"}[form%4]
		closer := [...]string{"</summary>", "</Summary>", "</summary >", "</sumary>"}[form/4%4]
		text := before + "\n" + open + "\n" + body + "\n" + closer + "\n" + after
		if e := compact.ExtractRobust(text); !e.OK || e.Summary == "" {
			t.Fatalf("ExtractRobust(%q) = %+v: lost the summary block", text, e)
		}
	})
}

// go test -run='^$' -fuzz='^FuzzRobustUntagged$' -fuzztime=30s ./compact
//
// FuzzRobustUntagged gives robust a text without tags, brackets or the word summary: when
// it finds a summary, it is the text itself, trimmed (an untagged answer is returned whole,
// never cut or rewritten).
func FuzzRobustUntagged(f *testing.F) {
	for _, s := range seedTexts(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if strings.ContainsAny(text, "<[") || strings.Contains(strings.ToLower(text), "summ") {
			return // tags, brackets and Summary labels are markers, not untagged text
		}
		if !utf8.ValidString(text) {
			return // a stray byte can match inside a character, and the check below cuts by bytes
		}
		e := compact.ExtractRobust(text)
		if !e.OK {
			return
		}
		rest := strings.Replace(text, e.Summary, "", 1)
		rest = strings.NewReplacer("\u200b", "", "\u200c", "", "\u200d", "", "\u2060", "", "\u180e", "", "\u0085", "").Replace(rest)
		if !strings.Contains(text, e.Summary) || compact.TrimJS(rest) != "" {
			t.Fatalf("ExtractRobust(%q) = %q via %s: not the whole text trimmed", text, e.Summary, e.Path)
		}
	})
}
