package drift

import (
	"regexp"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/google/go-cmp/cmp"
)

const (
	testAnalysis = "Read a.go.\n\nThe retry loop ignores the deadline."
	testSummary  = "1. Primary Request:\n   Fix the retry.\n\n2. Next Step:\n   Run go test."
)

var testPair = Pair{Analysis: testAnalysis, Summary: testSummary}

// block returns a block with its tags alone on their lines.
func block(open, body, close string) string { return open + "\n" + body + "\n" + close }

var (
	analysisBlock = block("<analysis>", testAnalysis, "</analysis>")
	summaryBlock  = block("<summary>", testSummary, "</summary>")
	wellFormed    = analysisBlock + "\n\n" + summaryBlock
)

func found(s string) corpus.Intended { return corpus.Intended{Found: true, Summary: s} }

// TestOperators pins each operator's response and intended result on a small pair, for seeds
// that show its variants. A change to an operator's choices moves these; check the new
// responses by eye before updating them.
func TestOperators(t *testing.T) {
	eol := func(s, e string) string { return strings.ReplaceAll(s, "\n", e) }
	for _, tc := range []struct {
		op        string
		seed      int64
		want      string
		intended  corpus.Intended
		ambiguous bool
		reason    string
	}{
		{
			op: "prose-before", seed: 10,
			want:     "I have all the context I need, so no tools are necessary.\n\nLet me organize my thoughts first.\n\n" + wellFormed,
			intended: found(testSummary), reason: "two paragraphs of prose before the blocks are not summary",
		},
		{
			op: "prose-after", seed: 1,
			want:     wellFormed + "\n\nLet me know if you want me to continue with the next step.",
			intended: found(testSummary), reason: "a closing remark after the closer is not summary",
		},
		{
			op: "echo-example", seed: 11,
			want:     analysisBlock + "\n\n" + exampleTemplate + "\n\n" + summaryBlock,
			intended: found(testSummary), reason: "the echoed template between the blocks is not the summary",
		},
		{
			op: "echo-example", seed: 4,
			want:     strings.TrimSuffix(strings.TrimPrefix(exampleTemplate, "<example>\n"), "\n</example>") + "\n\n" + wellFormed,
			intended: found(testSummary), reason: "a bare template's summary block comes first; the real one is the last complete block",
		},
		{
			op: "inline-mention", seed: 13,
			want:     block("<analysis>", "Read a.go.\n\n<summary> has to hold all nine sections, so I'll double-check section 6 against the transcript.\n\nThe retry loop ignores the deadline.", "</analysis>") + "\n\n" + summaryBlock,
			intended: found(testSummary), reason: "an opener at the start of an analysis line, followed by words, is a mention",
		},
		{
			op: "inline-mention", seed: 8,
			want:     block("<analysis>", "Read a.go.\n\nNext I'll wrap the final answer in `<analysis>` and `<summary>` tags as requested.\n\nThe retry loop ignores the deadline.", "</analysis>") + "\n\n" + summaryBlock,
			intended: found(testSummary), reason: "the live run's backticked mention",
		},
		{
			op: "html-summary", seed: 2,
			want:     analysisBlock + "\n\n" + block("<summary>", "1. Primary Request:\n   Fix the retry.\n\n<details>\n<summary>\nEarlier decisions (collapsed)\n</summary>\n\n- Kept the public API unchanged.\n- Left the CI matrix alone.\n</details>\n\n2. Next Step:\n   Run go test.", "</summary>"),
			intended: found("1. Primary Request:\n   Fix the retry.\n\n<details>\n<summary>\nEarlier decisions (collapsed)\n</summary>\n\n- Kept the public API unchanged.\n- Left the CI matrix alone.\n</details>\n\n2. Next Step:\n   Run go test."),
			reason:   "HTML summary tags alone on their lines inside <details> are body",
		},
		{
			op: "html-summary", seed: 1,
			want:     analysisBlock + "\n\n" + block("<summary>", "1. Primary Request:\n   Fix the retry.\n\n   Background: <details><summary>why the retry budget is shared</summary>every attempt reuses the caller's deadline</details>\n\n2. Next Step:\n   Run go test.", "</summary>"),
			intended: found("1. Primary Request:\n   Fix the retry.\n\n   Background: <details><summary>why the retry budget is shared</summary>every attempt reuses the caller's deadline</details>\n\n2. Next Step:\n   Run go test."),
			reason:   "an inline <details> element is body",
		},
		{
			op: "retry", seed: 2,
			want:     analysisBlock + "\n\n" + block("<summary>", "1. Primary Request:\n   Fix the retry.", "</summary>") + "\n\nLet me rewrite that summary more carefully.\n\n" + summaryBlock,
			intended: found(testSummary), reason: "of two complete blocks the last one is the summary",
		},
		{
			op: "summary-first", seed: 1,
			want:     summaryBlock + "\n\n" + analysisBlock,
			intended: found(testSummary), reason: "order does not change which block is the summary",
		},
		{
			op: "loop", seed: 8,
			want:     analysisBlock + "\n\n<summary>\n1. Primary Request:\n   Fix the retry." + strings.Repeat("\n   Fix the retry.", 69) + "\n\n2. Next Step:\n   Run go test.\n</summary>",
			intended: found("1. Primary Request:\n   Fix the retry." + strings.Repeat("\n   Fix the retry.", 69) + "\n\n2. Next Step:\n   Run go test."),
			reason:   "a loop the model recovers from stays in the body",
		},
		{
			op: "loop", seed: 4,
			want:     analysisBlock + "\n\n<summary>\n" + testSummary + strings.Repeat("\n   Run go test.", 264) + "\n   ",
			intended: found(testSummary + strings.Repeat("\n   Run go test.", 264)),
			reason:   "a runaway loop is cut by the token limit: the body as written up to the cut",
		},
		{
			op: "loop", seed: 1,
			want:     "<analysis>\nRead a.go.\n\nThe retry loop ignores the deadline." + strings.Repeat("\nThe retry loop ignores the deadline.", 21) + "\nThe retry",
			intended: corpus.Intended{}, reason: "a runaway loop in the analysis ends the response before any summary",
		},
		{
			op: "tag-case", seed: 1,
			want:     analysisBlock + "\n\n" + block("<SUMMARY>", testSummary, "</SUMMARY>"),
			intended: found(testSummary), reason: "upper-case summary tags are still the summary's",
		},
		{
			op: "tag-case", seed: 2,
			want:     block("<ANALYSIS>", testAnalysis, "</ANALYSIS>") + "\n\n" + block("<SUMMARY>", testSummary, "</SUMMARY>"),
			intended: found(testSummary), reason: "every tag in upper case",
		},
		{
			op: "tag-case", seed: 3,
			want:     analysisBlock + "\n\n" + block("<Summary>", testSummary, "</Summary>"),
			intended: found(testSummary), reason: "title case",
		},
		{
			op: "tag-case", seed: 10,
			want:     analysisBlock + "\n\n" + block("<SUMMARY>", testSummary, "</summary>"),
			intended: found(testSummary), reason: "only the opener respelled",
		},
		{
			op: "tag-attributes", seed: 10,
			want:     block(`<analysis type="scratchpad">`, testAnalysis, "</analysis>") + "\n\n" + block(`<summary id="compaction-summary">`, testSummary, "</summary>"),
			intended: found(testSummary), reason: "attributes on both openers",
		},
		{
			op: "wrong-closer", seed: 1,
			want:     analysisBlock + "\n\n" + block("<summary>", testSummary, "</analysis>"),
			intended: found(testSummary), reason: "a summary closed by </analysis> is still closed",
		},
		{
			op: "wrong-closer", seed: 2,
			want:     block("<analysis>", testAnalysis, "</summary>") + "\n\n" + summaryBlock,
			intended: found(testSummary), reason: "an analysis closed by </summary> is still the analysis",
		},
		{
			op: "wrong-closer", seed: 3,
			want:     block("<analysis>", testAnalysis, "</think>") + "\n\n" + summaryBlock,
			intended: found(testSummary), reason: "</think> closes the analysis",
		},
		{
			op: "missing-opener", seed: 2,
			want:     analysisBlock + "\n\n" + testSummary + "\n</summary>",
			intended: found(testSummary), reason: "an orphan closer after a closed analysis: the text between them, as the corpus judges",
		},
		{
			op: "missing-opener", seed: 1,
			want:     testAnalysis + "\n</analysis>\n\n" + summaryBlock,
			intended: found(testSummary), reason: "the analysis's opener is missing; the summary block is whole",
		},
		{
			op: "missing-closer", seed: 1,
			want:     analysisBlock + "\n\n<summary>\n" + testSummary,
			intended: found(testSummary), reason: "an unclosed summary runs to the end",
		},
		{
			op: "missing-closer", seed: 10,
			want:     analysisBlock + "\n\n<summary>\n" + testSummary + "\n",
			intended: found(testSummary), reason: "an unclosed summary ending in a newline, trimmed",
		},
		{
			op: "missing-closer", seed: 3,
			want:     "<analysis>\n" + testAnalysis + "\n\n" + summaryBlock,
			intended: found(testSummary), reason: "the summary opener ends an unclosed analysis",
		},
		{
			op: "tag-spacing", seed: 4,
			want:     analysisBlock + "\n\n\u00a0<summary> \t\n" + testSummary + "\n\u00a0</summary> \t",
			intended: found(testSummary), reason: "NBSP indentation and trailing blanks on the tag lines are not body",
		},
		{
			op: "fence-block", seed: 2,
			want:     analysisBlock + "\n```xml\n" + summaryBlock + "\n```",
			intended: found(testSummary), reason: "a fence around the summary block is outside its tags",
		},
		{
			op: "fence-all", seed: 10,
			want:     "```markdown\n" + wellFormed,
			intended: found(testSummary), reason: "a fence around everything, never closed",
		},
		{
			op: "crlf", seed: 1,
			want:     eol(wellFormed, "\r\n"),
			intended: found(eol(testSummary, "\r\n")), reason: "CRLF inside the body stays CRLF",
		},
		{
			op: "line-terminators", seed: 5,
			want:     eol(wellFormed, "\u0085"),
			intended: found(eol(testSummary, "\u0085")), reason: "NEL ends the lines: the NELs around the body are not body, the ones inside are",
		},
		{
			op: "line-terminators", seed: 30,
			want:     "<analysis>\r\n" + testAnalysis + "\r\n</analysis>\r\n\r\n<summary>\r\n" + testSummary + "\r\n</summary>",
			intended: found(testSummary), reason: "CRLF on the tag lines only",
		},
		{
			op: "line-terminators", seed: 1,
			want:     eol(wellFormed, "\r\r\n"),
			intended: found(eol(testSummary, "\r\r\n")), reason: "CR CR LF throughout",
		},
		{
			op: "bom", seed: 1,
			want:     analysisBlock + "\n\n<summary>\n\ufeff" + testSummary + "\n</summary>",
			intended: found(testSummary), reason: "a BOM between the opener line and the body is trimmed",
		},
		{
			op: "bom", seed: 2,
			want:     analysisBlock + "\n\n\ufeff" + summaryBlock,
			intended: found(testSummary), reason: "a BOM before the opener on its line",
		},
		{
			op: "truncate", seed: 7,
			want:     analysisBlock + "\n\n<summary>\n1. Primary Request:\n   Fix the retry.\n\n2. Next Step:\n   R",
			intended: found("1. Primary Request:\n   Fix the retry.\n\n2. Next Step:\n   R"), reason: "cut mid-word: the body up to the cut",
		},
		{
			op: "truncate", seed: 5,
			want:     analysisBlock + "\n\n<summary>\n1. Primary Request:\n   Fix the retry.\n",
			intended: found("1. Primary Request:\n   Fix the retry."), reason: "cut after a line end: trimmed",
		},
		{
			op: "truncate", seed: 9,
			want:     analysisBlock + "\n\n<summary>\n" + testSummary + "\n</s",
			intended: found(testSummary), reason: "cut inside the closer: the whole body, without the fragment",
		},
		{
			op: "truncate", seed: 274,
			want:     analysisBlock + "\n\n<summ",
			intended: corpus.Intended{}, reason: "cut inside the opener: no summary began",
		},
		{
			op: "truncate", seed: 82,
			want:     analysisBlock + "\n\n<summary>\n",
			intended: corpus.Intended{}, reason: "cut right after the opener line: an empty body is no summary",
		},
		{
			op: "truncate", seed: 13,
			want:     "<analysis>\nRead a.go.\n\nThe ",
			intended: corpus.Intended{}, reason: "cut in the analysis",
		},
	} {
		op, ok := LookupOperator(tc.op)
		if !ok {
			t.Fatalf("no operator %q", tc.op)
		}
		s := MutateWith(testPair, tc.seed, op)
		if s.Response != tc.want {
			t.Errorf("%s seed %d (%s): response mismatch (-want +got):\n%s", tc.op, tc.seed, tc.reason, cmp.Diff(tc.want, s.Response))
		}
		if s.Intended != tc.intended || s.Ambiguous != tc.ambiguous {
			t.Errorf("%s seed %d (%s): intended = %+v, ambiguous %v; want %+v, %v", tc.op, tc.seed, tc.reason, s.Intended, s.Ambiguous, tc.intended, tc.ambiguous)
		}
	}
}

// TestOperatorsCovered makes sure TestOperatorEffects checks every operator.
func TestOperatorsCovered(t *testing.T) {
	for _, name := range OperatorNames() {
		if _, ok := operatorEffects[name]; !ok {
			t.Errorf("operator %s has no effect check in operatorEffects", name)
		}
	}
}

var (
	tagMention = regexp.MustCompile(`(?s)<analysis>\n.*</?summary>.*\n</analysis>`)
	attribute  = regexp.MustCompile(`<(summary|analysis) [a-z]+="`)
	spacedTag  = regexp.MustCompile(`(?m)^[ \t\x{a0}]+</?(analysis|summary)>|</?(analysis|summary)>[ \t]+$`)
)

// operatorEffects checks, for one sample of testPair, that the operator did what its name
// says.
var operatorEffects = map[string]func(s Sample) bool{
	"prose-before": func(s Sample) bool { return !strings.HasPrefix(s.Response, "<") },
	"prose-after":  func(s Sample) bool { return !strings.HasSuffix(s.Response, ">") },
	"echo-example": func(s Sample) bool { return strings.Contains(s.Response, "[Detailed description]") },
	"inline-mention": func(s Sample) bool {
		return tagMention.MatchString(s.Response)
	},
	"html-summary": func(s Sample) bool { return strings.Contains(s.Intended.Summary, "<details>") },
	"retry":        func(s Sample) bool { return strings.Count(s.Response, "<summary>") == 2 },
	"summary-first": func(s Sample) bool {
		return strings.Index(s.Response, "<summary>") < strings.Index(s.Response, "<analysis>")
	},
	"loop": func(s Sample) bool { return hasRepeatedLine(s.Response) },
	"tag-case": func(s Sample) bool {
		return strings.Contains(s.Response, "<SUMMARY>") || strings.Contains(s.Response, "<Summary>")
	},
	"tag-attributes": func(s Sample) bool { return attribute.MatchString(s.Response) },
	"wrong-closer": func(s Sample) bool {
		return strings.Contains(s.Response, "</think>") || strings.Count(s.Response, "</analysis>") == 2 || strings.Count(s.Response, "</summary>") == 2
	},
	"missing-opener": func(s Sample) bool {
		return !strings.Contains(s.Response, "<summary>") || !strings.Contains(s.Response, "<analysis>")
	},
	"missing-closer": func(s Sample) bool {
		return !strings.Contains(s.Response, "</summary>") || !strings.Contains(s.Response, "</analysis>")
	},
	"tag-spacing": func(s Sample) bool { return spacedTag.MatchString(s.Response) },
	"fence-block": func(s Sample) bool {
		return strings.Contains(s.Response, "```") || strings.Contains(s.Response, "~~~")
	},
	"fence-all": func(s Sample) bool {
		return strings.HasPrefix(s.Response, "```") || strings.HasPrefix(s.Response, "~~~")
	},
	"crlf": func(s Sample) bool {
		return strings.Count(s.Response, "\n") == strings.Count(s.Response, "\r\n") && strings.Contains(s.Response, "\r\n")
	},
	"line-terminators": func(s Sample) bool { return strings.ContainsAny(s.Response, "\r\u2028\u2029\u0085") },
	"bom":              func(s Sample) bool { return strings.Contains(s.Response, "\ufeff") },
	"truncate": func(s Sample) bool {
		return len(s.Response) < len(wellFormed) && strings.HasPrefix(wellFormed, s.Response) &&
			strings.HasPrefix(testSummary, s.Intended.Summary)
	},
}

func hasRepeatedLine(s string) bool {
	lines := strings.Split(s, "\n")
	for i := 2; i < len(lines); i++ {
		if lines[i] != "" && lines[i] == lines[i-1] && lines[i] == lines[i-2] {
			return true
		}
	}
	return false
}

// TestOperatorEffects applies each operator alone to testPair with many seeds and checks that
// it changed the response the way its name says, and that the intended summary is trimmed
// and in the response.
func TestOperatorEffects(t *testing.T) {
	for _, op := range Operators() {
		effect := operatorEffects[op.Name]
		for seed := range int64(200) {
			s := MutateWith(testPair, seed, op)
			if s.Response == wellFormed {
				t.Errorf("%s seed %d left the response unchanged", op.Name, seed)
			}
			if effect != nil && !effect(s) {
				t.Errorf("%s seed %d: the response does not show the operator's effect:\n%q\nintended %q", op.Name, seed, s.Response, s.Intended.Summary)
			}
			checkIntended(t, s)
		}
	}
}

// checkIntended checks what holds for every sample: the intended summary is trimmed, is in
// the response when found, and is empty when not.
func checkIntended(t *testing.T, s Sample) {
	t.Helper()
	in := s.Intended
	if compact.TrimJS(in.Summary) != in.Summary {
		t.Errorf("ops %v: intended summary %q is not trimmed", s.Ops, in.Summary)
	}
	if in.Found && !strings.Contains(s.Response, in.Summary) {
		t.Errorf("ops %v: intended summary %q is not in the response %q", s.Ops, in.Summary, s.Response)
	}
	if in.Found == (in.Summary == "") {
		t.Errorf("ops %v: intended %+v: found must go with a non-empty summary", s.Ops, in)
	}
}
