package fuzz

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/internal/testref"
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
			got = append(got, v.prop)
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
	seed := extractor.Builtins()[0]
	text := "Some prose first.\nMore prose.\n<summary>\n1. Primary Request and Intent:\n   Fix the flaky test.\n2. Key Technical Concepts:\n   - Go"
	if !stillFails(PropTagKept, text, seed.Extract(text)) {
		t.Fatalf("seed(%q) = %q does not keep its opener", text, seed.Extract(text).Summary)
	}
	small, spent, err := minimize(PropTagKept, text, seed.ExtractAll, 500)
	if err != nil {
		t.Fatal(err)
	}
	if small != "<summary>" {
		t.Errorf("minimize() = %q after %d extractions, want %q", small, spent, "<summary>")
	}
	if _, spent, _ := minimize(PropTagKept, text, seed.ExtractAll, 3); spent > 3+len(text) {
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
	res, err := Run(extractor.Builtin(robust), c.Cases, Options{Seed: 1, Size: -1})
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

// TestRunSeedModule runs the real seed module under Node: the fuzzer finds its known leaks
// (an unclosed <summary> keeps its opener; an analysis block between two summary blocks
// ends up in the summary) and its quadratic time on openers without a closer, and writes
// each kept failure once as an inbox case that lints.
func TestRunSeedModule(t *testing.T) {
	module := filepath.Join("..", "..", "shared", "seed", "compaction.ts")
	if _, err := os.Stat(module); err != nil {
		testref.Missing(t, "the seed module", err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		testref.Missing(t, "node", err)
	}
	if testing.Short() {
		t.Skip("times the seed module on inputs of 80 KB")
	}
	// All the time it needs: at load 35 on two cores the 80 KB openers took over 60 s, and
	// the time check then says timeout, not superlinear.
	ex, err := extractor.Open("module:"+module, extractor.OpenOptions{Timeout: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	c, err := corpus.Open(nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(ex, c.Cases, Options{Batches: 1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{PropTagKept, PropLeak, PropSuperlinear} {
		if res.Counts[p] == 0 {
			t.Errorf("the seed module passes %s; counts %v", p, res.Counts)
		}
	}
	var openers *Timing
	for i, tm := range res.Timings {
		if tm.Family == "summary-openers" {
			openers = &res.Timings[i]
		}
	}
	if openers == nil || openers.Verdict != "superlinear" {
		t.Errorf("summary-openers timing = %+v, want superlinear", openers)
	}
	kept := false
	for _, f := range res.Examples {
		kept = kept || f.Property == PropTagKept && f.Input == "<summary>"
	}
	if !kept {
		t.Errorf("no tag-kept example minimized to a bare <summary>: %+v", res.Examples)
	}
	if res.ExecsPerSecond <= 0 {
		t.Errorf("executions per second = %v", res.ExecsPerSecond)
	}

	dir := t.TempDir()
	n, err := WriteInbox(dir, res)
	if err != nil || n == 0 {
		t.Fatalf("WriteInbox() = %d, %v; want new cases", n, err)
	}
	cases, err := corpus.Load(dir)
	if err != nil {
		t.Fatalf("the inbox cases do not load: %v", err)
	}
	for _, k := range cases {
		if !strings.Contains(k.Notes, corpus.Unreviewed) || k.Origin.Kind != corpus.Synthetic {
			t.Errorf("%s: origin %s, notes %q; want synthetic and unreviewed", k.ID, k.Origin.Kind, k.Notes)
		}
	}
	// The same failures again overwrite nothing.
	before := snapshot(t, dir)
	if n, err := WriteInbox(dir, res); err != nil || n != 0 {
		t.Errorf("WriteInbox() again = %d, %v; want 0 new files", n, err)
	}
	if after := snapshot(t, dir); after != before {
		t.Errorf("a second WriteInbox changed the inbox")
	}
}

// TestRunNondeterministic: a command whose answer changes between calls is caught.
func TestRunNondeterministic(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("SKIP: python3 is not on PATH")
	}
	script := filepath.Join(t.TempDir(), "flaky.py")
	src := `import json, sys
n = 0
for line in sys.stdin:
    if not line.strip():
        continue
    n += 1
    req = json.loads(line)
    print(json.dumps({"id": req["id"], "summary": "answer %d" % n}), flush=True)
`
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ex, err := extractor.Open("cmd:python3 "+script, extractor.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	// Two batches: the second sends texts of the first again, which get other answers.
	res, err := Run(ex, nil, Options{Batches: 2, Size: -1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Counts[PropNondeterministic] == 0 {
		t.Errorf("a counter as summary passes nondeterministic: %v", res.Counts)
	}
}

func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		b.WriteString(p + "\n" + string(data))
		return err
	})
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return b.String()
}

// TestTimeFamiliesFirstFails: an extractor that fails on the first small input (killed by
// its timeout on a loaded machine) returns that family as a timeout, which timeCheck names
// in its note; it used to return no timing, and timeCheck indexed timings[-1].
func TestTimeFamiliesFirstFails(t *testing.T) {
	boom := errors.New("boom")
	got, err := timeFamilies(func(string) (compact.Extraction, error) { return compact.Extraction{}, boom }, 64)
	if !errors.Is(err, boom) || len(got) != 1 || got[0].Family != Families[0].Name || got[0].Verdict != "timeout" {
		t.Errorf("timeFamilies(failing) = %+v, %v; want one timeout of %s", got, err, Families[0].Name)
	}
}
