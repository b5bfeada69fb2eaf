package fuzz

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
)

func TestOracles(t *testing.T) {
	found := func(s string) compact.Extraction { return compact.Extraction{Summary: s, OK: true} }
	for _, tc := range []struct {
		name, text string
		got        compact.Extraction
		want       []string
	}{
		{"clean block", "<analysis>\nI read the whole session.\n</analysis>\n<summary>\n1. Fix it.\n</summary>", found("1. Fix it."), nil},
		{"analysis kept", "<analysis>\nI read the whole session.\n</analysis>\n<summary>\n1. Fix it.\n</summary>",
			found("I read the whole session.\n1. Fix it."), []string{PropLeak}},
		{"analysis inside the summary block is summary", "<summary>\n<analysis>\nI read the whole session.\n</analysis>\n</summary>",
			found("<analysis>\nI read the whole session.\n</analysis>"), nil},
		{"unclosed analysis is no closed block", "<analysis>\nI read the whole session.\n<summary>\nx\n</summary>",
			found("I read the whole session."), nil},
		{"opener kept", "<summary>\n1. Fix it.", found("<summary>\n1. Fix it."), []string{PropTagKept}},
		{"opener kept in a fenced text", "```\n<summary>\n1. Fix it.", found("<summary>\n1. Fix it."), nil},
		{"bare opener", "<summary>", found("<summary>"), []string{PropBareTag, PropTagKept}},
		{"lost", "<summary>\n1. Fix it.\n</summary>", compact.Extraction{}, []string{PropLost}},
		{"a summary block inside analysis is analysis", "<analysis>\n<summary>\n1. Fix it.\n</summary>\n</Analysis>", compact.Extraction{}, nil},
		{"nothing to lose", "1. Fix it.", compact.Extraction{}, nil},
	} {
		var got []string
		for _, v := range check(tc.text, tc.got, nil, nil) {
			if !v.ambiguous {
				got = append(got, v.prop)
			}
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%s: check(%q, %q) = %v, want %v", tc.name, tc.text, tc.got.Summary, got, tc.want)
		}
	}
	// With an intended summary that has the tag line, keeping it is no failure.
	want := &corpus.Intended{Found: true, Summary: "quoted:\n<summary>\nend"}
	if vs := check("x", found("quoted:\n<summary>\nend"), want, nil); len(vs) != 0 {
		t.Errorf("check() with the tag line intended = %v, want none", vs)
	}
}

// TestMinimize shrinks the seed's kept opener to the opener alone, with the real seed.
func TestMinimize(t *testing.T) {
	seedEx, _ := compact.Lookup("seed")
	seed := Of(seedEx)
	text := "Some prose first.\nMore prose.\n<summary>\n1. Primary Request and Intent:\n   Fix the flaky test.\n2. Key Technical Concepts:\n   - Go"
	if !stillFails("tag-kept:summary", text, seedEx.Extract(text)) {
		t.Fatalf("seed(%q) = %q does not keep its opener", text, seedEx.Extract(text).Summary)
	}
	small, spent, err := minimize("tag-kept:summary", text, seed.ExtractAll, 500)
	if err != nil {
		t.Fatal(err)
	}
	if small != "<summary>" {
		t.Errorf("minimize() = %q after %d extractions, want %q", small, spent, "<summary>")
	}
	if _, spent, _ := minimize("tag-kept:summary", text, seed.ExtractAll, 3); spent > 3+len(text) {
		t.Errorf("minimize() spent %d extractions on a budget of 3", spent)
	}
}

// TestRunRobust: robust keeps every property on the corpus responses (it is the extractor
// the properties come from). On generated inputs the fuzzer finds where it still falls
// short (compacteval fuzz -extractor robust prints them).
func TestRunRobust(t *testing.T) {
	robust, _ := compact.Lookup("robust")
	c, err := corpus.Open(nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(Of(robust), c.Cases, Options{Seed: 1, Size: -1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Failed() {
		t.Errorf("robust fails: %v; examples %+v", res.Counts, res.Examples)
	}
	if res.Inputs["corpus"] != len(c.Cases) || len(res.Inputs) != 1 {
		t.Errorf("inputs = %v, want every corpus case and nothing generated in no time", res.Inputs)
	}
}

// TestTimeFamiliesFirstFails: an extractor that fails on the first small input (killed by
// its timeout on a loaded machine) returns that family as a timeout, which timeCheck names
// in its note; it used to return no timing, and timeCheck indexed timings[-1].
func TestTimeFamiliesFirstFails(t *testing.T) {
	boom := errors.New("boom")
	got, err := timeFamilies(func(string) (compact.Extraction, error) { return compact.Extraction{}, boom }, 64, newClock(nil))
	if !errors.Is(err, boom) || len(got) != 1 || got[0].Family != Families[0].Name || got[0].Verdict != "timeout" {
		t.Errorf("timeFamilies(failing) = %+v, %v; want one timeout of %s", got, err, Families[0].Name)
	}
}

// TestRunReference: a kind the reference shows on the same inputs is known and does not
// fail the run; a kind it does not show fails, unless accepted.
func TestRunReference(t *testing.T) {
	constant := func(name, summary string) Target {
		return Of(compact.Extractor{Name: name, Extract: func(string) compact.Extraction { return compact.Extraction{Summary: summary, OK: true} }})
	}
	cases := []*corpus.Case{
		{ID: "a", Response: "<summary>\n1. Fix it.\n</summary>", Intended: corpus.Intended{Found: true, Summary: "1. Fix it."}},
		{ID: "b", Response: "Done.", Intended: corpus.Intended{Found: true, Summary: "Done."}},
	}
	bare := constant("bare", "<summary>")
	same, opener := constant("same", "<summary>"), constant("opener", "<summary>\nx")
	for _, tc := range []struct {
		name       string
		ref        *Target
		accept     []string
		failed     bool
		known, new []string
	}{
		{name: "no reference", failed: true, new: []string{"bare-tag:summary", "tag-kept:summary"}},
		{name: "the same behaviour", ref: &same, known: []string{"bare-tag:summary", "tag-kept:summary"}},
		{name: "a reference that keeps the opener only", ref: &opener, failed: true, known: []string{"tag-kept:summary"}, new: []string{"bare-tag:summary"}},
		{name: "the new kind's property accepted", ref: &opener, accept: []string{"bare-tag"}, known: []string{"tag-kept:summary"}},
	} {
		res, err := Run(bare, cases, Options{Size: -1, Reference: tc.ref, Accept: tc.accept})
		if err != nil {
			t.Fatal(err)
		}
		var known, fresh []string
		for _, k := range res.Kinds {
			if k.Count != 2 {
				t.Errorf("%s: %s counted %d times, want 2", tc.name, k.Kind, k.Count)
			}
			if k.Known {
				known = append(known, k.Kind)
				if k.ReferenceCount != 2 {
					t.Errorf("%s: the reference's %s counted %d, want 2", tc.name, k.Kind, k.ReferenceCount)
				}
			}
			if k.New() {
				fresh = append(fresh, k.Kind)
			}
		}
		if res.Failed() != tc.failed || strings.Join(known, ",") != strings.Join(tc.known, ",") || strings.Join(fresh, ",") != strings.Join(tc.new, ",") {
			t.Errorf("%s: Run() failed %v, known %v, new %v; want %v, %v, %v", tc.name, res.Failed(), known, fresh, tc.failed, tc.known, tc.new)
		}
	}
}

// TestReferenceSuperlinearKnown: a superlinear family the reference is known to be slow on
// (Target.Superlinear) is a known kind, another is new. The target's CPU clock is counted,
// not measured: each text costs the square of its length in nanoseconds, so every family
// is superlinear on any machine.
func TestReferenceSuperlinearKnown(t *testing.T) {
	var spent time.Duration
	slow := Target{Name: "slow",
		ExtractAll: func(texts []string) ([]compact.Extraction, error) {
			out := make([]compact.Extraction, len(texts))
			for i, s := range texts {
				spent += time.Duration(len(s)) * time.Duration(len(s))
				out[i] = compact.Extraction{OK: true, Summary: strings.TrimSpace(s)}
			}
			return out, nil
		},
		CPU: func() (time.Duration, bool) { return spent, true },
	}
	ref := Of(compact.Extractor{Name: "seed", Extract: func(s string) compact.Extraction { return compact.Extraction{OK: true, Summary: strings.TrimSpace(s)} }})
	ref.Superlinear = []string{"summary-openers"}
	res, err := Run(slow, nil, Options{Batches: 1, Seed: 1, Size: 2 << 10, Reference: &ref})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, k := range res.Kinds {
		if k.Property != PropSuperlinear {
			continue
		}
		checked++
		if want := k.Kind == "superlinear-time:summary-openers"; k.Known != want {
			t.Errorf("%s: known %v, want %v", k.Kind, k.Known, want)
		}
	}
	if checked < 2 {
		t.Errorf("the counted-quadratic target is superlinear on %d families, want every family", checked)
	}
}
