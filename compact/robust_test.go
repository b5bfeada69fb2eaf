package compact

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/internal/textgen"
)

// sections is a nine-section summary body for the robust tests.
const sections = "1. Primary Request and Intent:\n   Fix the flaky test.\n\n2. Key Technical Concepts:\n   - Go\n\n" +
	"3. Files and Code Sections:\n   - a.go\n\n4. Errors and fixes:\n   - none\n\n5. Problem Solving:\n   done\n\n" +
	"6. All user messages:\n    - \"fix it\"\n\n7. Pending Tasks:\n   - none\n\n8. Current Work:\n   the test\n\n" +
	"9. Optional Next Step:\n   none"

func TestExtractRobust(t *testing.T) {
	const an = "<analysis>\nI looked at a.go. SECRET-ANALYSIS\n</analysis>\n\n"
	short := "1. Primary Request and Intent:\n   draft\n\n2. Key Technical Concepts:\n   - Go"
	for _, tc := range []struct {
		name   string
		in     string
		want   string
		ok     bool
		reason string
	}{
		{"well-formed", an + "<summary>\n" + sections + "\n</summary>\n", sections, true, "the seed result"},
		{"uppercase", an + "<SUMMARY>\n" + sections + "\n</SUMMARY>", sections, true, "tags in any case"},
		{"attribute", an + "<summary type=\"final\">\n" + sections + "\n</summary>", sections, true, "attributes on the opener"},
		{"misspelled", an + "<sumary>\n" + sections + "\n</sumary>", sections, true, "one letter off"},
		{"spaced closer", "<analysis>\nSECRET-ANALYSIS\n</ analysis>\n<summary>\n" + sections + "\n</summary >", sections, true, "blanks inside tags"},
		{"think closer", "<analysis>\nSECRET-ANALYSIS\n</think>\n<summary>\n" + sections + "\n</summary>", sections, true, "</think> closes an analysis"},
		{"unclosed analysis", "<analysis>\nSECRET-ANALYSIS\n<summary>\n" + sections + "\n</summary>", sections, true, "an unclosed analysis ends at the summary"},
		{"analysis only", an, "", false, "the analysis is never the summary"},
		{"unclosed analysis only", "<analysis>\nSECRET-ANALYSIS and more", "", false, "nor an unclosed one"},
		{"bare opener", an + "<summary>", "", false, "a bare opener is no summary"},
		{"opener loop", an + strings.Repeat("<summary>\n", 50) + "<summ", "", false, "repeated openers hold no content"},
		{"headings only", "<summary>\n1. Primary Request and Intent:\n\n2. Key Technical Concepts:\n</summary>", "", false, "an empty form is no summary"},
		{"truncated", an + "<summary>\n" + sections + "\n</summ", sections, true, "unclosed: to the end, minus the partial closer"},
		{"retry", an + "<summary>\n" + short + "\n</summary>\nLet me redo that.\n<summary>\n" + sections + "\n</summary>", sections, true, "the fuller block wins"},
		{"repeat", an + "<summary>\n" + sections + "\n</summary>\n<summary>\n" + sections + "\n</summary>", sections, true, "one copy"},
		{"sign-off", an + "<summary>\n" + sections + "\n</summary>\n<summary>Done.</summary>", sections, true, "a one-line block does not displace a full one"},
		{"unclosed restatement", an + "<summary>\n" + sections + "\n</summary>\n<summary>\n" + short, sections, true, "a shorter unclosed copy does not win"},
		{"inline mention", "<analysis>\nI will write the <summary> block next.\n</analysis>\n<summary>\n" + sections + "\n</summary>", sections, true, "mentions are not structure"},
		{"inline mention, no analysis", "Use a `<summary>` tag.\n<summary>\n" + sections + "\n</summary>", sections, true, "code spans are not structure"},
		{"html details", "<summary>\n1. Primary Request and Intent:\n<details>\n<summary>Log</summary>\nx\n</details>\n" + sections[33:] + "\n</summary>",
			"1. Primary Request and Intent:\n<details>\n<summary>Log</summary>\nx\n</details>\n" + sections[33:], true, "an inline <summary> element in the body"},
		{"fenced answer", "```xml\n" + an + "<summary>\n" + sections + "\n</summary>\n```", sections, true, "fences around the whole answer"},
		{"fence wrapper in tags", an + "<summary>\n```\n" + sections + "\n```\n</summary>", sections, true, "a fence wrapping the body is dropped"},
		{"echoed template", "<example>\n<summary>\n1. Primary Request and Intent:\n   [Detailed description]\n2. Key Technical Concepts:\n   - [Concept 1]\n   - [Concept 2]\n</summary>\n</example>\n" +
			an + "<summary>\n" + sections + "\n</summary>", sections, true, "placeholders are not a summary"},
		{"summary first", "<summary>\n" + sections + "\n</summary>\n" + an, sections, true, "order does not matter"},
		{"analysis closed after summary", "<analysis>\nSECRET-ANALYSIS\n<summary>\n" + sections + "\n</summary>\n</analysis>", sections, true, "a late analysis closer"},
		{"orphan closer", an + sections + "\n</summary>", sections, true, "the text before an orphan closer"},
		{"heading", "## Analysis\nSECRET\n\n## Summary\n" + sections, sections, true, "a Summary heading line"},
		{"brackets", "[summary]\n" + sections + "\n[/summary]\nThanks!", sections, true, "bracket markers"},
		{"brackets, length-changing lowercase", "[summary]\nİSTANBUL İZMİR " + sections + "\n[/summary]\nAfter.", "İSTANBUL İZMİR " + sections, true,
			"İ grows when lowercased: the closing bracket is found in the text itself"},
		{"well-formed, headings alone", an + "<summary>\n1. Primary Request and Intent:\n2. Key Technical Concepts:\n3. Files and Code Sections:\n4. Errors and fixes:\n5. Problem Solving:\n</summary>\n",
			"", false, "headings alone are no summary, however well the tags are placed (seed returns them)"},
		{"prose, then a block of headings", "Here is the summary.\n<summary>\n1.:\n2.:\n7.:\n8.:\n9.:\n</summary>", "", false,
			"the closer of a block is no orphan: the text before it is no summary"},
		{"headings split at U+0085 only", "<summary>\n1. Primary Request and Intent:\n\n1. Primary Request and Intent:\u00851. Primary Request and Intent:\n", "", false,
			"U+0085 ends no line of a text with \\n for the tags, but splits lines when robust asks whether a block says anything"},
		{"no tags, prose", "Here is what we did: we fixed the test.", "Here is what we did: we fixed the test.", true, "an untagged answer is its text"},
		{"no tags, nine sections", an + sections, sections, true, "an untagged summary after a closed analysis"},
		{"no tags, refusal", "I can't summarize this: the transcript holds secrets.", "", false, "a refusal is no summary"},
		{"no tags, tool call", "Let me check first.\n{\"type\":\"tool_use\",\"name\":\"Read\"}", "", false, "a printed tool call is no summary"},
		{"no tags, label only", an + "## Summary\n", "", false, "a bare label is no summary"},
		{"orphan closer, short", "plain summary</summary>", "plain summary", true, "the text before an orphan closer, tag dropped"},
		{"opener right after closer", "<analysis>SECRET-ANALYSIS</analysis><summary>\n" + sections + "\n</summary>", sections, true, "a tag right after a closing tag is structure"},
		{"opener after closer and space", "<analysis>\nSECRET-ANALYSIS\n</analysis> <summary>\n" + sections + "\n</summary>", sections, true, "blanks between the tags"},
		{"one-line blocks after closer", "<analysis>SECRET-ANALYSIS</analysis><summary>Summary.</summary>", "Summary.", true, "both blocks on one line"},
		{"inline opener after prose", "Here is the summary: <summary>\n" + sections + "\n</summary>", sections, true, "an opener after prose starts a block when no other has content"},
		{"inline one-line block", "Here it is: <summary>Fixed the test.</summary> Bye.", "Fixed the test.", true, "an inline block on one line"},
		{"quoted tags in a one-line summary", "<analysis>SECRET-ANALYSIS</analysis>\n<summary>1. The user asked for an <analysis> block then a <summary></summary> block.\n2. Work continued.</summary>",
			"1. The user asked for an <analysis> block then a <summary></summary> block.\n2. Work continued.", true, "a quoted pair does not close the block"},
		{"no tags, fence only", "```\n<analysis>\nSECRET-ANALYSIS and more", "", false, "a fence line left by an unclosed analysis is no summary"},
		{"no tags, preamble then unclosed analysis", "I'll write the analysis first.\n<analysis>\nSECRET-ANALYSIS and more", "", false,
			"an answer cut inside its analysis has no summary, whatever came before"},
		{"inline html element is no block", "<analysis>SECRET-ANALYSIS</analysis>\n" + sections + "\n   Background: <details><summary>why</summary>more</details>\n</summary>", sections +
			"\n   Background: <details><summary>why</summary>more</details>", true, "an opener after <details> is HTML; the orphan closer marks the summary"},
		{"untagged, two analysis blocks", "<analysis>SECRET-ANALYSIS</analysis>\nkept one\n<analysis>SECRET-ANALYSIS</analysis>\nkept two", "kept one\n\nkept two", true, "every analysis block is cut"},
		{"bracket marker, analysis after", "[summary]\n" + sections + "\n[/summry]\nnote <Analysis type=\"x\">\nSECRET-ANALYSIS </think>\nafter", sections + "\n[/summry]\nnote \nafter", true,
			"a marker's body runs to the end minus the analysis (the FuzzRobustNoLeak crasher)"},
		{"crlf", strings.ReplaceAll(an+"<summary>\n"+sections+"\n</summary>", "\n", "\r\n"), strings.ReplaceAll(sections, "\n", "\r\n"), true, "CRLF ends lines; the body keeps it"},
		{"nel lines", strings.ReplaceAll(an+"<summary>\n"+sections+"\n</summary>", "\n", "\u0085"), strings.ReplaceAll(sections, "\n", "\u0085"), true, "U+0085 as line terminator is trimmed at the ends"},
		{"closed by </analysis>", an + "<summary>\n" + sections + "\n</analysis>", sections, true, "a wrong closer still closes the block"},
		{"details on own lines", "<summary>\n1. Primary Request and Intent:\n<details>\n<summary>\nLog\n</summary>\nx\n</details>\n" + sections[33:] + "\n</summary>",
			"1. Primary Request and Intent:\n<details>\n<summary>\nLog\n</summary>\nx\n</details>\n" + sections[33:], true, "<summary> after <details> is HTML"},
		{"tilde fence around all, unclosed summary", "~~~\n<summary>\n" + sections + "\n```go\nx := 1\n```\n" + an, sections + "\n```go\nx := 1\n```", true,
			"a ``` fence does not close the ~~~ one; the analysis after the unclosed block is cut"},
		{"orphan closer, U+2028 lines", strings.ReplaceAll(an+sections+"\n</summary>", "\n", "\u2028"), strings.ReplaceAll(sections, "\n", "\u2028"), true, "every line terminator counts"},
		{"zero-width around body", an + "<summary>\u200b\n" + sections + "\n\u200b</summary>", sections, true, "zero-width characters next to the tags"},
		{"analysis closed on its line before prose", "<analysis>SECRET-ANALYSIS</analysis>n\n<summary>\ne\n</summary>\n<analysis></analysis>", "e", true,
			"an opener whose next tag is its closer on its line closes there: the later analysis does not swallow the summary (fuzz, issue 26)"},
		{"analysis in a fence, fence closed", "```xml\n<analysis>\nSECRET-ANALYSIS\n```\n" + sections + "\n</summary>", sections, true,
			"an unclosed analysis opened inside a fence ends where the fence closes; the orphan closer ends the summary (fuzz, issue 26)"},
		{"analysis in a fence, no summary closer", "```xml\n<analysis>\nSECRET-ANALYSIS\n```\nSECRET-ANALYSIS, more", "", false,
			"without a summary closer after it, a bare fence line may open code inside the analysis: the analysis runs on"},
		{"fence around all, analysis unclosed", "```xml\n<analysis>\nSECRET-ANALYSIS\n<summary>\n" + sections + "\n</summary>\n```", sections, true,
			"a fence closing after the summary does not end the analysis before it"},
		{"orphan closer after echoed template", "<example>\n<summary>\n1. Primary Request and Intent:\n   [Detailed description]\n2. Key Technical Concepts:\n   - [Concept 1]\n   - [Concept 2]\n   - [...]\n</summary>\n</example>\n\n" +
			short + "\n</SUMMARY>", short, true, "right after an example block, an orphan closer needs content, not three sections (fuzz, issue 26)"},
		{"orphan closer after an unwrapped echoed template", "<summary>\n1. Primary Request and Intent:\n   [Detailed description]\n2. Key Technical Concepts:\n   - [Concept 1]\n   - [Concept 2]\n   - [...]\n</summary>\n\n" +
			short + "\n</summary>\n" + an, short, true, "right after a block that is the template echoed, as after an example block (fuzz, issue 26)"},
		{"BOM before the tags of the only line", "<sumary><summary y>\u2028\ufeff<SUMMARY/>", "", false,
			"a BOM before a tag is invisible: tags alone are no summary (fuzz, issue 26)"},
		{"BOM before a tag, untagged", "<summary\">\n\ufeff<example>", "", false, "tag-shaped lines alone, one after a BOM, are no untagged summary"},
		{"two sections before an orphan closer at the start", "1. Primary Request and Intent: cache flag lookups\n2. Pending Tasks: benchmark the cache\n</summary>\n\n<analysis>\nSECRET-ANALYSIS",
			"1. Primary Request and Intent: cache flag lookups\n2. Pending Tasks: benchmark the cache", true,
			"an orphan closer ends a summary of two numbered sections, nothing but the analysis after it (fuzz, issue 26)"},
		{"BOM before a tag and prose", "<summary>\n\ufeff<b>bold</b> text\n</summary>", "<b>bold</b> text", true, "tags with prose after a BOM are content"},
		{"an example opener, a BOM line and a tag, untagged", "<example><analysis></analysis>\n\ufeff\n<summary\u2060>", "", false,
			"a line of invisible characters alone is blank: only tags remain (fuzz, issue 26)"},
		{"a BOM line between untagged prose", "<analysis>\nSECRET-ANALYSIS\n</analysis>\n\ufeff\nThe user wants the flaky test fixed.", "The user wants the flaky test fixed.", true,
			"the blank line of a BOM is trimmed with the rest"},
		{"unclosed analysis, a line about the opener", "<analysis>\nSECRET-ANALYSIS\n\n<summary> has to hold all nine sections.\n\nSECRET-ANALYSIS, cut",
			"", false, "an opener followed by a lower-case word, nothing closing after it, is prose about the tag (fuzz, issue 26)"},
		{"unclosed analysis, a line about the opener, then the summary", "<analysis>\nSECRET-ANALYSIS\n<summary> has to hold all nine sections.\nSECRET-ANALYSIS\n<summary>\n" + sections,
			sections, true, "the analysis runs past the line about the opener to the summary's opener"},
		{"unclosed analysis, an inline summary that closes", "<analysis>\nSECRET-ANALYSIS\n<summary> the user wants the flaky test fixed.\n</summary>",
			"the user wants the flaky test fixed.", true, "a summary closer after it: the opener starts the summary"},
		{"unclosed analysis, an inline summary in capitals", "<analysis>\nSECRET-ANALYSIS\n<summary>The user wants the flaky test fixed.",
			"The user wants the flaky test fixed.", true, "content that starts with a capital or a number is the summary's"},
		{"analysis closer with text after it, then a block", "<analysis>\nSECRET-ANALYSIS</analysis>x\n<summary>\n" + short + "\n</summary>\n<analysis></analysis>",
			short, true, "rule Analysis: a whole block before the next analysis closer follows the first closer (fuzz seed 20261207)"},
		{"analysis closer before a wide character, then a block", "<analysis><sumary></analysis>語\n<summary>\n" + short + "\n</summary>\r<analysis></analysis>",
			short, true, "rule Analysis, with other line ends (fuzz seed 20261207)"},
		{"a closed analysis block inside a tag", "<analysis<analysis>SECRET-ANALYSIS</analysis>>\nDone: the tests pass.", "Done: the tests pass.", true,
			"rule Trim: cutting the block leaves an <analysis> line, which the text's ends lose (fuzz seed 20261207)"},
		{"a closed analysis block inside a summary closer", "Done: the tests pass.\n</summary<analysis>SECRET-ANALYSIS</Analysis>>\nThanks.",
			"Done: the tests pass.\n\nThanks.", true, "rule Analysis: the block takes the broken tag around it, so no </summary> line is left (fuzz seed 42)"},
		{"an analysis closer right before a misspelled opener, then a block", "<analysis>\nSECRET-ANALYSIS</analysis><sumary>\n<summary>\n" + short + "\n</summary>\n<analysis></Analysis>",
			short, true, "rule Analysis: the whole block comes before the next closer (fuzz seed 20261208)"},
		{"a U+0085 before a tag", "<summary>\n\u0085<y>\n</summary>", "", false,
			"rule Truncation: a tag after an invisible character is a tag alone; seed returns the line (fuzz seed 20261207)"},
	} {
		got := ExtractRobust(tc.in)
		if got.Summary != tc.want || got.OK != tc.ok {
			t.Errorf("%s (%s): ExtractRobust(%q) = (%q, %v) via %s, want (%q, %v)", tc.name, tc.reason, tc.in, got.Summary, got.OK, got.Path, tc.want, tc.ok)
		}
		if strings.Contains(got.Summary, "SECRET-ANALYSIS") {
			t.Errorf("%s: ExtractRobust leaked the analysis: %q", tc.name, got.Summary)
		}
	}
}

// TestRobustEqualsSeedOnWellFormed generates well-formed answers and requires robust to
// return exactly what seed returns.
func TestRobustEqualsSeedOnWellFormed(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 2000 {
		// Well-formed: no tag-like text in the blocks, "\n" line ends.
		prose := func(n int) string {
			return strings.NewReplacer("<", "(", "\r", "", "\u2028", "", "\u2029", "", "\u0085", "").Replace(textgen.Prose(r, n))
		}
		an := prose(1 + r.IntN(4))
		body := sections
		if r.IntN(2) == 0 {
			body = prose(2) + "\n" + sections + "\n" + prose(1)
		}
		in := "<analysis>\n" + an + "\n</analysis>\n\n<summary>\n" + body + "\n</summary>"
		if r.IntN(2) == 0 {
			in += "\n"
		}
		seed, robust := Extract(in), ExtractRobust(in)
		if seed != robust {
			t.Fatalf("case %d: ExtractRobust(%q) = %+v, seed gives %+v", i, in, robust, seed)
		}
	}
}

// TestRobustNeverLeaksAnalysis puts a marker in a closed analysis block with no tags inside,
// among generated tag soup: robust never returns it.
func TestRobustNeverLeaksAnalysis(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 50000 {
		open := [...]string{"<analysis>", "<ANALYSIS>", "<analysis>\n", "\n<analysis>\n"}[r.IntN(4)]
		closer := [...]string{"</analysis>", "\n</analysis>\n", "</think>"}[r.IntN(3)]
		inside := strings.ReplaceAll(textgen.Prose(r, 1)+" LEAK-MARKER "+textgen.Prose(r, 1), "<", "(")
		// No fences: an analysis block quoted in a summary's fenced code is the summary's.
		noFence := strings.NewReplacer("```", "'''", "~~~", "---")
		in := noFence.Replace(textgen.Soup(r, 8)) + open + inside + closer + noFence.Replace(textgen.Soup(r, 12))
		if got := ExtractRobust(in); strings.Contains(got.Summary, "LEAK-MARKER") {
			t.Fatalf("case %d: ExtractRobust(%q) leaked the analysis: %q", i, in, got.Summary)
		}
	}
}

// TestHasContentSplitsAsEachLine holds hasContent, which splits lines itself, to the same
// question asked line by line through eachLine, on soups of every terminator.
func TestHasContentSplitsAsEachLine(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	lines := []string{"", " ", "1. Primary Request and Intent:", "<summary>", "x", "\r", "\n", "\r\n", "\u2028", "\u2029", "\u0085", "\xe2\x80", "\xc2", "é"}
	for i := range 50000 {
		var b strings.Builder
		for n := r.IntN(8); n > 0; n-- {
			b.WriteString(lines[r.IntN(len(lines))])
		}
		body := b.String()
		want := false
		eachLine(body, func(line string) bool {
			want = isContentLine(line)
			return !want
		})
		if got := hasContent(body); got != want {
			t.Fatalf("case %d: hasContent(%q) = %v, want %v", i, body, got, want)
		}
	}
}

// TestHasContentLoops holds hasContent, which asks about each line of a loop once, to the
// same question asked line by line through eachLine, on loops of one to six lines that say
// nothing (tags, headings, blanks) ending in a line that may say something.
func TestHasContentLoops(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 2))
	quiet := []string{"", " ", "<summary>", "</analysis>", "<details>", "## 1. Primary Request and Intent:", "<summ", "\u200b"}
	loud := []string{"x", "The tests pass now.", "<summary>x", "1. Intent: fix it", "<", "summary"}
	// A blank line after the first lines, then the text from the second byte on: "b>" says
	// something, though it repeats what the body holds from its second byte.
	for _, body := range []string{"<b>\n<c>\n<d>\n\nb>\n<c>\n<e>", "<b>\n<c>\n\n\nb>\n<e>"} {
		if !hasContentIn(body, true) || !hasContent(body) {
			t.Errorf("hasContentIn(%q, true) = false, want true", body)
		}
	}
	for i := range 20000 {
		period := make([]string, 1+r.IntN(6))
		for k := range period {
			period[k] = quiet[r.IntN(len(quiet))]
			if r.IntN(20) == 0 {
				period[k] = loud[r.IntN(len(loud))]
			}
		}
		var lines []string
		for n := r.IntN(12); n > 0; n-- {
			lines = append(lines, period...)
		}
		if r.IntN(2) == 0 {
			lines = append(lines, loud[r.IntN(len(loud))])
		}
		body := strings.Join(lines, "\n")
		want := false
		eachLine(body, func(line string) bool {
			want = isContentLine(line)
			return !want
		})
		if got := hasContent(body); got != want {
			t.Fatalf("case %d: hasContent(%q) = %v, want %v", i, body, got, want)
		}
		if got := hasContentIn(body, true); got != want {
			t.Fatalf("case %d: hasContentIn(%q, true) = %v, want %v", i, body, got, want)
		}
	}
}
