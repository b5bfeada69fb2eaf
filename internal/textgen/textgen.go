// Package textgen generates the inputs of the differential tests: texts that mix the
// compaction tags with every character that JavaScript and Go treat differently.
//
// Output depends only on the *rand.Rand it is given, so a seed reproduces a run.
package textgen

import (
	"math/rand/v2"
	"strings"
)

// Atoms are the pieces Soup draws from: tags whole and broken, every line terminator, the
// whitespace code points where JavaScript's trim and Go's TrimSpace disagree, fences, prose
// characters that take two UTF-16 units, JavaScript replacement patterns ($&) and a
// non-ASCII letter that /i must not fold to an ASCII one (ſ).
var Atoms = []string{
	"<summary>", "</summary>", "<analysis>", "</analysis>",
	"<summary>", "</summary>", "<analysis>", "</analysis>",
	"<summary", "summary>", "</summary", "<analysis", "analysis>", "</", "<", ">", "/",
	"<SUMMARY>", "</Summary>", `<summary type="final">`, "</think>", "<example>", "</example>",
	"<ANALYSIS>", "</Analysis>", "<ſummary>", "$&", "$'", "$`", "$$", "$1", "$<x>", "\n\n\n",
	" ", " ", "  ", "\t", "\n", "\n", "\n", "\r", "\r\n", "\r\n", "\u2028", "\u2029", "\u0085",
	"\v", "\f", "\u00a0", "\ufeff", "\u1680", "\u2000", "\u2005", "\u200a", "\u200b", "\u202f",
	"\u205f", "\u3000", "\u180e", "\u2060", "\x00",
	"```", "```xml\n", "\n```\n", "~~~",
	"x", "summary", "analysis", "1. Primary Request and Intent:", "- item", "Done.",
	"é", "日本語", "😀", "\U0001F9EA",
}

// Soup returns up to n atoms joined together.
func Soup(r *rand.Rand, n int) string {
	var b strings.Builder
	for k := r.IntN(n + 1); k > 0; k-- {
		b.WriteString(Atoms[r.IntN(len(Atoms))])
	}
	return b.String()
}

// blank returns a short run of spaces and tabs, or nothing.
func blank(r *rand.Rand) string {
	return [...]string{"", "", "", " ", "\t", "  ", " \t", "\u00a0", "\u3000"}[r.IntN(9)]
}

// eol returns a line terminator, most often "\n".
func eol(r *rand.Rand) string {
	return [...]string{"\n", "\n", "\n", "\n", "\r\n", "\r", "\u2028", "\u2029", "\u0085", ""}[r.IntN(10)]
}

// Structured returns a response shaped like a real answer (analysis then summary) with tag
// lines whose blanks, terminators and tags are perturbed, and soup between the parts.
func Structured(r *rand.Rand) string {
	var b strings.Builder
	part := func(s string) {
		if r.IntN(4) == 0 {
			b.WriteString(Soup(r, 4))
		}
		b.WriteString(s)
	}
	if r.IntN(5) != 0 {
		part(blank(r) + "<analysis>" + blank(r) + eol(r))
		part(Prose(r, 1+r.IntN(3)))
		if r.IntN(6) != 0 {
			part(eol(r) + blank(r) + "</analysis>" + blank(r) + eol(r))
		}
		part(eol(r))
	}
	for blocks := 1 + r.IntN(2); blocks > 0; blocks-- {
		part(blank(r) + "<summary>" + blank(r) + eol(r))
		part(Prose(r, 1+r.IntN(4)))
		if r.IntN(6) != 0 {
			part(eol(r) + blank(r) + "</summary>" + blank(r) + eol(r))
		}
	}
	part(Soup(r, 3))
	return b.String()
}

var words = []string{
	"the", "user", "asked", "to", "fix", "handler.go", "tests", "pass", "`<summary>`", "tags",
	"retry", "deadline", "func Parse(s string) error", "npm test", "panic: nil map",
	"Files and Code Sections:", "Current Work:", "</summary> inline", "<analysis> mention",
	"naïve", "—", "✓", "\t", "  ",
}

// Prose returns n lines of words, some of them tag mentions.
func Prose(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(eol(r))
		}
		for k := 1 + r.IntN(8); k > 0; k-- {
			if k < 8 {
				b.WriteByte(' ')
			}
			b.WriteString(words[r.IntN(len(words))])
		}
	}
	return b.String()
}

// Large returns a response of roughly size bytes: a real answer shape repeated, or a loop of
// one line, with or without its closing tag.
func Large(r *rand.Rand, size int) string {
	var b strings.Builder
	switch r.IntN(3) {
	case 0:
		b.WriteString("<analysis>\n")
		for b.Len() < size/3 {
			b.WriteString(Prose(r, 4) + "\n")
		}
		b.WriteString("</analysis>\n\n<summary>\n")
		for b.Len() < size {
			b.WriteString(Prose(r, 4) + "\n")
		}
		if r.IntN(4) != 0 {
			b.WriteString("</summary>\n")
		}
	case 1:
		line := Prose(r, 1) + "\n"
		b.WriteString("<summary>\n")
		for b.Len() < size {
			b.WriteString(line)
		}
	default:
		for b.Len() < size {
			b.WriteString(Structured(r))
		}
	}
	return b.String()
}

// Response returns one differential-test input: mostly soups and structured answers, now and
// then a large one (up to maxLarge bytes; 0 disables them).
func Response(r *rand.Rand, maxLarge int) string {
	switch k := r.IntN(100); {
	case k < 45:
		return Soup(r, 24)
	case k < 90:
		return Structured(r)
	case k < 99 || maxLarge == 0:
		return Soup(r, 4) + Structured(r) + Soup(r, 4) + Structured(r)
	default:
		return Large(r, 1+r.IntN(maxLarge))
	}
}

// BenchInput is one named input of the speed comparison between the port and the reference.
type BenchInput struct {
	Name string
	Text string
}

// BenchRand returns the source of BenchInputs' texts.
func BenchRand() *rand.Rand { return rand.New(rand.NewPCG(2026, 11)) }

// WellFormed returns a typical well-formed answer of about size bytes: an analysis block of
// prose, then a summary block of prose, a third and two thirds of the text.
func WellFormed(r *rand.Rand, size int) string {
	var b strings.Builder
	b.WriteString("<analysis>\n")
	for b.Len() < size/3 {
		b.WriteString(Prose(r, 1) + "\n")
	}
	b.WriteString("</analysis>\n\n<summary>\n")
	for b.Len() < size-len("</summary>\n") {
		b.WriteString(Prose(r, 1) + "\n")
	}
	b.WriteString("</summary>\n")
	return b.String()
}

// BenchInputs returns the benchmark inputs: typical well-formed answers and the adversarial
// ones a looping small model writes. The same seed gives the same texts.
func BenchInputs() []BenchInput {
	r := BenchRand()
	repeat := func(s string, size int) string { return strings.Repeat(s, size/len(s)) }
	return []BenchInput{
		{"typical-20KB", WellFormed(r, 20<<10)},
		{"typical-200KB", WellFormed(r, 200<<10)},
		{"unclosed-summary-lines-100KB", repeat("<summary>\n", 100<<10)},
		{"unclosed-summary-lines-1MB", repeat("<summary>\n", 1<<20)},
		{"unclosed-summary-lines-10MB", repeat("<summary>\n", 10<<20)},
		{"analysis-openers-1MB", repeat("<analysis>", 1<<20)},
		{"inline-summary-1MB", repeat("<summary>x", 1<<20)},
	}
}

// Families returns one input of about size bytes for each adversarial shape that robust's
// code has a path for, as a looping or broken small model writes them: many openers and
// closers, fences, headings, markers, near-miss tags, long lines and unclosed openers. The
// linearity tests and the speed table run every family at several sizes.
func Families(size int) []BenchInput {
	repeat := func(s string) string { return strings.Repeat(s, max(1, size/len(s))) }
	oneLine := func(unit, end string) string { return repeat(unit) + end }
	return []BenchInput{
		{"summary-openers", repeat("<summary>\n")},
		{"blocks", repeat("<summary>\nDone.\n</summary>\n")},
		{"orphan-closers", repeat("</summary>\n")},
		{"analysis-openers", repeat("<analysis>")},
		{"analysis-then-summary", repeat("<analysis>\n<summary>\n")},
		{"inline-openers", repeat("<summary>x")},
		{"closer-chains", oneLine("</analysis><summary>", "\n")},
		{"fences", repeat("```\n<summary>\n```\n")},
		{"summary-headings", repeat("Summary\n")},
		{"heading-sentence-loop", repeat("## Summary\nThe tests pass now.\n")},
		{"bracket-markers", repeat("[summary]\n")},
		{"bracket-misspelled-closers", repeat("[summary]\n[/summry]\n")},
		{"near-miss-openers", oneLine("<summary x", "\n")},
		{"near-miss-names", oneLine("<summar> <sumaryy> ", "\n")},
		{"long-line-closers", oneLine("</summary> ", "end\n")},
		{"long-line-blank-tail", strings.Repeat("</summary> ", size/22) + strings.Repeat(" ", size/2) + "\n"},
		{"code-span-tags", oneLine("`<summary>` ", "\n")},
		{"open-code-span", "`" + oneLine("<summary> ", "\n")},
		{"invisible-prefix", strings.Repeat("\u200b", size/6) + strings.Repeat("<summary> ", size/20) + "\n"},
		{"details-fallback", repeat("<details>\n<summary>\n</analysis>\n")},
		{"unclosed-with-text", repeat("<summary>\n1. Primary Request and Intent:\n")},
		{"mentions", mentions(size, "</summary>\n")},
		{"mentions-unclosed", mentions(size, "")},
		// A '<' that starts no tag, alone on each line or as a line of them; a fence left open
		// before a loop of openers; the line terminators robust reads besides "\n", in a loop
		// of openers and in the mentions answer (U+0085 ends lines only in a text with no
		// "\n" or "\r").
		{"bare-lt-lines", repeat("<\n")},
		{"lt-line", oneLine("<", "\n")},
		{"unclosed-fence-openers", "```\n" + repeat("<summary>\n")},
		{"summary-openers-crlf", repeat("<summary>\r\n")},
		{"summary-openers-nel", repeat("<summary>\u0085")},
		{"summary-openers-ls", repeat("<summary>\u2028")},
		{"mentions-crlf", strings.ReplaceAll(mentions(size, "</summary>\n"), "\n", "\r\n")},
		{"mentions-ls", strings.ReplaceAll(mentions(size, "</summary>\n"), "\n", "\u2028")},
		// Shapes nobody on the team built (issue 39): code fences of both kinds with openers
		// between them, fences inside longer fences, lines that start with a tag and go on,
		// tags between emoji, openers with a long attribute, misspelled openers, openers after a
		// zero-width space, closed think blocks, openers with words of changing length between.
		{"mixed-fences", repeat("```\n<summary>\n~~~\n<summary>\n")},
		{"nested-fences", repeat("````\n```\n<summary>\n```\n````\n")},
		{"tag-prefix-lines", repeat("<summary>The tests pass now.\n")},
		{"emoji-tags-lines", repeat("\U0001F680 <summary> \u2705 </analysis> \U0001F389\n")},
		{"attribute-openers", repeat(`<summary a="` + strings.Repeat("y", 1000) + "\">\n")},
		{"misspelled-openers", repeat("<sumary>\n")},
		{"zero-width-openers", repeat("\u200b<summary>\n")},
		{"think-blocks", repeat("<think>\nI check the plan.\n</think>\n")},
		// A line of openers with words of changing length between them: the line repeats only
		// every six tags, further back than robust.ts's look for a loop on a line reaches
		// (f9257f9 mended a quadratic read of it).
		{"varied-openers", oneLine("<summary> a <summary> be <summary> the <summary> test <summary> tests <summary> passed ", "\n")},
	}
}

// mentions returns an answer of about size bytes whose tags are alone on their lines and
// whose prose mentions tags inside its lines only (robust's fast path), ending with end.
func mentions(size int, end string) string {
	r := rand.New(rand.NewPCG(uint64(size), 14))
	var b strings.Builder
	b.WriteString("<analysis>\n")
	for b.Len() < size/3 {
		b.WriteString("-" + Prose(r, 1) + "\n")
	}
	b.WriteString("</analysis>\n\n<summary>\n")
	for b.Len() < size-len(end) {
		b.WriteString("-" + Prose(r, 1) + "\n")
	}
	b.WriteString(end)
	return b.String()
}
