package fuzzrun

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/fuzz"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/internal/testhelp/testref"
)

// TestRunSeedModule runs the real seed module under Node: the fuzzer finds its known leaks
// (an unclosed <summary> keeps its opener; an analysis block between two summary blocks
// ends up in the summary) and its quadratic time on openers without a closer, and writes
// each kept failure once as an inbox case that lints.
// openSeedModule opens ../shared/seed/compaction.ts as a module extractor, closed when the
// test ends; it skips (or fails, where the reference is required) without it or Node. It
// gives the module all the time it needs: at load 35 on two cores the 80 KB openers took
// over 60 s, and the time check then says timeout, not superlinear.
func openSeedModule(t *testing.T) *extractor.Extractor {
	t.Helper()
	module := filepath.Join("..", "..", "..", "shared", "seed", "compaction.ts")
	if _, err := os.Stat(module); err != nil {
		testref.Missing(t, "the seed module", err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		testref.Missing(t, "node", err)
	}
	ex, err := extractor.Open(context.Background(), "module:"+module, extractor.OpenOptions{Timeout: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ex.Close() })
	return ex
}

func TestRunSeedModule(t *testing.T) {
	if testing.Short() {
		t.Skip("times the seed module on inputs of 80 KB")
	}
	ex := openSeedModule(t)
	c, err := corpus.Open(nil)
	if err != nil {
		t.Fatal(err)
	}
	// The default sizes, as compacteval fuzz times them: at 4 and 40 KB analysis-openers'
	// large input takes Node under MinSeconds and reads linear.
	res, err := Run(context.Background(), ex, c.Cases, fuzz.Options{Batches: 1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fuzz.PropTagKept, fuzz.PropLeak, fuzz.PropSuperlinear} {
		if res.Counts[p] == 0 {
			t.Errorf("the seed module passes %s; counts %v", p, res.Counts)
		}
	}
	var openers *fuzz.Timing
	for i, tm := range res.Timings {
		if tm.Family == "summary-openers" {
			openers = &res.Timings[i]
		}
	}
	if openers == nil || openers.Verdict != "superlinear" {
		t.Errorf("summary-openers timing = %+v, want superlinear", openers)
	}
	// fuzz.SeedSuperlinear is what the seed module measures: a module fuzzed against the
	// seed reference has those families known in seed, and only those.
	var slow []string
	for _, tm := range res.Timings {
		if tm.Verdict != "linear" {
			slow = append(slow, tm.Family)
		}
	}
	if diff := cmp.Diff(fuzz.SeedSuperlinear, slow); diff != "" {
		t.Errorf("the seed module's superlinear families differ from fuzz.SeedSuperlinear (-list +measured):\n%s", diff)
	}
	kept := false
	for _, f := range res.Examples {
		kept = kept || f.Property == fuzz.PropTagKept && f.Input == "<summary>"
	}
	if !kept {
		t.Errorf("no tag-kept example minimized to a bare <summary>: %+v", res.Examples)
	}
	if res.ExecsPerSecond <= 0 {
		t.Errorf("executions per second = %v", res.ExecsPerSecond)
	}

	dir := t.TempDir()
	n, _, err := WriteInbox(dir, res, nil)
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
	if again, existing, err := WriteInbox(dir, res, nil); err != nil || again != 0 || len(existing) != n {
		t.Errorf("WriteInbox() again = %d, %d existing, %v; want 0 new files and the %d there", again, len(existing), err, n)
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
	ex, err := extractor.Open(context.Background(), "cmd:python3 "+script, extractor.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	res, err := Run(context.Background(), ex, nil, fuzz.Options{Batches: 2, Size: -1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Counts[fuzz.PropNondeterministic] == 0 {
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
