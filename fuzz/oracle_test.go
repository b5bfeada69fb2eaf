package fuzz

import (
	"slices"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/fuzz/drift"
)

// TestProperties holds each property to what a careful reader knows from the text alone:
// for each, inputs it must fail (with their kind), inputs it must pass, and inputs where
// the text does not decide, which are ambiguous, never failures.
func TestProperties(t *testing.T) {
	found := func(s string) compact.Extraction { return compact.Extraction{Summary: s, OK: true} }
	none := compact.Extraction{}
	intends := func(s string) *corpus.Intended { return &corpus.Intended{Found: true, Summary: s} }
	const note = "I read the whole session first."
	// sample is a drift sample of text whose analysis is note.
	sample := func(text, summary string, ambiguous bool) *drift.Sample {
		return &drift.Sample{Response: text, Intended: corpus.Intended{Found: summary != "", Summary: summary}, Ambiguous: ambiguous, Analysis: []string{note}}
	}
	for _, tc := range []struct {
		name      string
		text      string
		got       compact.Extraction
		want      *corpus.Intended
		s         *drift.Sample
		fails     []string // kinds
		ambiguous []string // properties
	}{
		// analysis-leak
		{name: "a closed block before the summary, kept", text: "<analysis>\n" + note + "\n</analysis>\n<summary>\n1. Fix it.\n</summary>",
			got: found(note + "\n1. Fix it."), fails: []string{"analysis-leak:before-summary"}},
		{name: "a closed block between two summaries, kept",
			text: "<summary>\n1. Draft.\n</summary>\n<analysis>\n" + note + "\n</analysis>\n<summary>\n1. Fix it.\n</summary>",
			got:  found("1. Draft.\n" + note + "\n1. Fix it."), fails: []string{"analysis-leak:between-summaries"}},
		{name: "a closed block alone, kept", text: "<analysis>\n" + note + "\n</analysis>\nDone.", got: found(note + "\nDone."), fails: []string{"analysis-leak:alone"}},
		{name: "an analysis block inside the summary block is summary", text: "<summary>\n<analysis>\n" + note + "\n</analysis>\n</summary>",
			got: found("<analysis>\n" + note + "\n</analysis>"), ambiguous: []string{PropTagKept}},
		{name: "an unclosed analysis is no closed block", text: "<analysis>\n" + note + "\n<summary>\nx\n</summary>", got: found(note)},
		{name: "a line the text also says outside the block", text: "<analysis>\n" + note + "\n</analysis>\n<summary>\n" + note + "\n</summary>", got: found(note)},
		{name: "an analysis block quoted in a fence", text: "```\n<analysis>\n" + note + "\n</analysis>\n```\nDone.", got: found(note)},
		{name: "a drift sample's analysis, marked by its tags", text: "<analysis>\n" + note + "\nmore\n</Analysis>\n<summary>\n1. Fix it.",
			got: found(note + "\n1. Fix it."), s: sample("", "1. Fix it.", false), want: intends("1. Fix it."), fails: []string{"analysis-leak:marked"}},
		{name: "a drift sample with every analysis tag gone", text: note + "\n1. Fix it.",
			got: found(note + "\n1. Fix it."), s: sample("", "1. Fix it.", false), want: intends("1. Fix it."), ambiguous: []string{PropLeak}},

		// bare-tag
		{name: "an opener alone", text: "<summary>", got: found("<summary>"), fails: []string{"bare-tag:summary", "tag-kept:summary"}},
		{name: "tags of two names", text: "</think> <Summary type=x>", got: found("</think> <Summary type=x>"), fails: []string{"bare-tag:summary+think"}},
		{name: "a tag and a word", text: "<summary> fixed", got: found("<summary> fixed")},
		{name: "a long s is no tag", text: "<ſummary>", got: found("<ſummary>")},

		// tag-kept
		{name: "an unclosed opener kept in front", text: "<summary>\n1. Fix it.", got: found("<summary>\n1. Fix it."), fails: []string{"tag-kept:summary"}},
		{name: "a closer kept at the end", text: "<summary>\n1. Fix it.\n</analysis>", got: found("1. Fix it.\n</analysis>"), fails: []string{"tag-kept:/analysis"}},
		{name: "an opener after prose kept inside", text: "Prose.\n<summary>\n1. Fix it.", got: found("Prose.\n<summary>\n1. Fix it."), fails: []string{"tag-kept:summary"}},
		{name: "an analysis closer inside the summary", text: "<sumary>x\n</analysis>\nt</sumary>", got: found("x\n</analysis>\nt"), ambiguous: []string{PropTagKept}},
		{name: "a text with a fence", text: "```\n<summary>\n1. Fix it.", got: found("<summary>\n1. Fix it."), ambiguous: []string{PropTagKept}},
		{name: "a summary block that holds a tag line", text: "<summary>\n<summary>\nx\n</summary>", got: found("<summary>\nx"), ambiguous: []string{PropTagKept}},
		{name: "the intended summary has the tag line", text: "quoted:\n<summary>\nend", got: found("quoted:\n<summary>\nend"), want: intends("quoted:\n<summary>\nend")},
		{name: "the intended summary has none", text: "<summary>\nx\n<analysis>\ny", got: found("x\n<analysis>\ny"), want: intends("x"),
			fails: []string{"tag-kept:analysis"}},
		{name: "a drift sample whose block quotes an HTML summary element", text: "<summary>\n1. Fix it.\n<details>\n<summary>\nOlder\n</summary>\n</details>\n</summary>",
			got: found("1. Fix it.\n<details>\n<summary>\nOlder\n</summary>\n</details>"), want: intends("1. Fix it."), s: sample("", "1. Fix it.", false),
			ambiguous: []string{PropTagKept}},

		// summary-lost
		{name: "a closed block lost", text: "<summary>\n1. Fix it.\n</summary>", got: none, fails: []string{"summary-lost:closed-block"}},
		{name: "a corpus case's summary lost", text: "Done. <summary>1. Fix it.</summary>", got: none, want: intends("1. Fix it."), fails: []string{"summary-lost:intended"}},
		{name: "a closed block before a closed think block, lost", text: "<summary>\n1. Fix it.\n</summary>\n<think>\nmore\n</think>", got: none,
			fails: []string{"summary-lost:closed-block"}},
		{name: "a closed block before a closer of no opener", text: "<analysis></analysis>\n<summary>\n1. Fix it.\n</summary>\n-</think>", got: none,
			ambiguous: []string{PropLost}},
		{name: "a summary block inside analysis is analysis", text: "<analysis>\n<summary>\n1. Fix it.\n</summary>\n</Analysis>", got: none},
		{name: "a block of a section heading alone", text: "<summary>\n1. Primary Request and Intent:\n</summary>", got: none},
		{name: "a list number and punctuation", text: "<summary>\n1.::\n</summary>", got: none},
		{name: "a numbered label ending in a colon", text: "<summary>\u20291.:k:\n</summary>", got: none},
		{name: "a long numbered line ending in a colon is text", text: "<summary>\n1. Fixed the nil pointer in auth.go and the flaky retry test in the client package, see below:\n</summary>", got: none,
			fails: []string{"summary-lost:closed-block"}},
		{name: "tags alone", text: "<summary>\n<x>\n</summary>", got: none},
		{name: "a tag after a U+0085 that ends no line (seed 20261207)", text: "<summary>\n\u0085<y>\n</summary>", got: none},
		{name: "a tag between invisible characters", text: "<summary>\n\u200b<y>\u00a0<z>\ufeff\n</summary>", got: none},
		{name: "a tilde fence in the block (seeds 3 and 99)", text: "<summary>\n~~~e\n</summary>\n~~~</Sumary>", got: none},
		{name: "a backtick fence in the block", text: "<summary>\n```e\n</summary>\n```</summary>", got: none},
		{name: "a letter after a U+0085 that ends no line", text: "<summary>\n\u0085y\n</summary>", got: none, fails: []string{"summary-lost:closed-block"}},
		{name: "tags and text", text: "<summary>\n<b>Fix</b> it\n</summary>", got: none, fails: []string{"summary-lost:closed-block"}},
		{name: "a heading and its text", text: "<summary>\n1. Primary Request and Intent:\n   Fix it.\n</summary>", got: none, fails: []string{"summary-lost:closed-block"}},
		{name: "an echoed template", text: "<summary>\n[Task 1]\n[Detailed description]\n[Next step]\n</summary>", got: none},
		{name: "nothing to lose", text: "1. Fix it.", got: none},
		{name: "an intended summary of headings only", text: "<summary>\n1. Primary Request and Intent:", got: none, want: intends("1. Primary Request and Intent:")},
		{name: "a drift sample's summary after a fenced analysis", text: "```xml\n<analysis>\n" + note + "\n```\n1. Fix it.\n</summary>", got: none,
			want: intends("1. Fix it."), s: sample("", "1. Fix it.", false), fails: []string{"summary-lost:intended"}},
		{name: "a drift sample's summary inside an unclosed analysis", text: "<analysis>\n" + note + "\n1. Fix it.\n</summary>", got: none,
			want: intends("1. Fix it."), s: sample("", "1. Fix it.", false), ambiguous: []string{PropLost}},
		{name: "a drift sample's summary inside a closed analysis", text: "<analysis>\n" + note + "\n<summary>\n1. Fix it.\n</summary>\n</analysis>", got: none,
			want: intends("1. Fix it."), s: sample("", "1. Fix it.", false), ambiguous: []string{PropLost}},
		{name: "a drift sample drift marks ambiguous", text: "Prose.\n1. Fix it.", got: none,
			want: intends("1. Fix it."), s: sample("", "1. Fix it.", true), ambiguous: []string{PropLost}},
	} {
		var fails, ambiguous []string
		for _, v := range check(tc.text, tc.got, tc.want, tc.s) {
			if v.ambiguous {
				ambiguous = append(ambiguous, v.prop)
				continue
			}
			fails = append(fails, v.kind)
			if !KnownKind(v.kind) {
				t.Errorf("%s: kind %q is not in Kinds()", tc.name, v.kind)
			}
		}
		if !slices.Equal(fails, tc.fails) || !slices.Equal(ambiguous, tc.ambiguous) {
			t.Errorf("%s: check(%q, %q) fails %v, ambiguous %v; want fails %v, ambiguous %v",
				tc.name, tc.text, tc.got.Summary, fails, ambiguous, tc.fails, tc.ambiguous)
		}
	}
}

// TestKinds: every kind names a property, no kind is listed twice, and gate.yaml's entries
// are checked against the same list.
func TestKinds(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range Kinds() {
		if seen[k] {
			t.Errorf("Kinds() lists %q twice", k)
		}
		seen[k] = true
		if !slices.Contains(Properties, PropertyOf(k)) {
			t.Errorf("kind %q names no property", k)
		}
	}
	for _, s := range []string{"tag-kept", "tag-kept:summary", "superlinear-time:summary-openers", "bare-tag:example+summary"} {
		if !KnownKind(s) {
			t.Errorf("KnownKind(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"tag-kep", "tag-kept:", "bare-tag:summary+example", "superlinear-time:nothing", ""} {
		if KnownKind(s) {
			t.Errorf("KnownKind(%q) = true, want false", s)
		}
	}
	if !Accepts([]string{"tag-kept"}, "tag-kept:/summary") || Accepts([]string{"tag-kept:summary"}, "tag-kept:/summary") {
		t.Errorf("Accepts: a property must accept its kinds, a kind only itself")
	}
	if !strings.Contains(strings.Join(Kinds(), " "), "nondeterministic") {
		t.Errorf("Kinds() lacks nondeterministic")
	}
}
