package compact_test

// Differential tests: the port against the reference module run under Node, through the
// JSON-lines protocol. More cases: go test ./compact -run Differential -args -diff.n=2000000
// (or make diff N=2000000).

import (
	"errors"
	"flag"
	"fmt"
	"github.com/compacteval/compacteval/internal/testhelp/testref"
	"math/rand/v2"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/internal/protocol"
	"github.com/compacteval/compacteval/internal/textgen"
)

var (
	diffN    = flag.Int("diff.n", 200000, "number of generated extract cases in the differential test")
	diffSeed = flag.Uint64("diff.seed", 1, "seed of the differential test's generator")
)

// startReference starts the reference runner, or skips the test saying why. With
// COMPACTEVAL_REQUIRE_REFERENCE=1 (set by .ci/run) a missing reference fails instead.
func startReference(t testing.TB) *protocol.Client {
	t.Helper()
	argv, err := protocol.ReferenceCommand(".")
	if errors.Is(err, protocol.ErrNoReference) {
		testref.Missing(t, "differential test against the reference", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	c, err := protocol.Start(argv)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("close reference: %v", err)
		}
	})
	return c
}

func TestDifferentialExtract(t *testing.T) {
	ref := startReference(t)
	r := rand.New(rand.NewPCG(*diffSeed, 0x5eed))
	const batch = 4000
	paths := map[compact.Path]int{}
	for done := 0; done < *diffN; done += batch {
		n := min(batch, *diffN-done)
		texts := make([]string, n)
		reqs := make([]protocol.Request, n)
		for i := range texts {
			texts[i] = textgen.Response(r, 64<<10)
			reqs[i] = protocol.Request{Op: "extract", Text: protocol.Str(texts[i])}
		}
		answers, err := ref.DoAll(reqs)
		if err != nil {
			t.Fatal(err)
		}
		for i, a := range answers {
			want, wantOK := refSummary(t, a)
			e := compact.Extract(texts[i])
			paths[e.Path]++
			if e.Summary != want || e.OK != wantOK {
				t.Fatalf("case %d (seed %d): ExtractSummary(%q)\n got (%q, %v) via %s\nwant (%q, %v) from the reference",
					done+i, *diffSeed, texts[i], e.Summary, e.OK, e.Path, want, wantOK)
			}
		}
	}
	t.Logf("%d cases agree; paths taken: %v", *diffN, paths)
	for _, p := range []compact.Path{compact.PathLineAnchored, compact.PathLoose, compact.PathWhole} {
		if *diffN >= 10000 && paths[p] < *diffN/100 {
			t.Errorf("generator reached path %s only %d times in %d cases: the test does not exercise it", p, paths[p], *diffN)
		}
	}
}

func refSummary(t *testing.T, a protocol.Response) (string, bool) {
	t.Helper()
	if a.Error != nil {
		t.Fatalf("reference error: %s", *a.Error)
	}
	if !a.HasSummary {
		t.Fatalf("reference answer has no summary field")
	}
	if a.Summary == nil {
		return "", false
	}
	return *a.Summary, true
}

func TestDifferentialConstants(t *testing.T) {
	ref := startReference(t)
	a, err := ref.Do(protocol.Request{Op: "constants"})
	if err != nil {
		t.Fatal(err)
	}
	if a.MaxTokens == nil || *a.MaxTokens != compact.MaxTokens {
		t.Errorf("MaxTokens = %d, reference has %v", compact.MaxTokens, a.MaxTokens)
	}
	if a.Instruction == nil || *a.Instruction != compact.Instruction {
		t.Errorf("Instruction differs from the reference's COMPACTION_INSTRUCTION")
	}
}

// instructionCase is one generated request for the three text builders.
type instructionCase struct {
	req  protocol.Request
	want func() string // the port's answer
}

func genInstructionCase(r *rand.Rand) instructionCase {
	text := func() string {
		switch r.IntN(5) {
		case 0:
			return ""
		case 1:
			return textgen.Soup(r, 3) // often whitespace only
		default:
			return textgen.Soup(r, 12)
		}
	}
	count := func() int {
		if r.IntN(10) == 0 {
			return [...]int{-1 << 53, 1 << 53, 1<<53 + 1, 1<<62 + 12345, -(1 << 62)}[r.IntN(5)]
		}
		return r.IntN(9) - 3
	}
	switch r.IntN(3) {
	case 0:
		reason := [...]string{"manual", "threshold", "overflow", "", "Manual", "other"}[r.IntN(6)]
		req := protocol.Request{Op: "instruction", Reason: protocol.Str(reason)}
		opts := compact.Options{Reason: compact.Reason(reason)}
		if r.IntN(3) != 0 {
			opts.CustomInstructions = text()
			req.CustomInstructions = protocol.Str(opts.CustomInstructions)
		}
		if r.IntN(3) != 0 {
			opts.KeptTail = compact.KeptTail{Count: count()}
			req.KeptTail = &protocol.KeptTail{Count: protocol.Int(opts.KeptTail.Count)}
			if r.IntN(4) != 0 {
				opts.KeptTail.Opening = text()
				req.KeptTail.Opening = protocol.Str(opts.KeptTail.Opening)
			}
		}
		return instructionCase{req, func() string { return compact.BuildInstruction(opts) }}
	case 1:
		tail := compact.KeptTail{Count: count()}
		req := protocol.Request{Op: "keptTailNote", Count: protocol.Int(tail.Count)}
		if r.IntN(4) != 0 {
			tail.Opening = text()
			req.Opening = protocol.Str(tail.Opening)
		}
		return instructionCase{req, func() string { return compact.KeptTailNote(tail) }}
	default:
		summary, path := text(), ""
		req := protocol.Request{Op: "continuation", Summary: protocol.Str(summary)}
		if r.IntN(3) != 0 {
			path = text()
			req.TranscriptPath = protocol.Str(path)
		}
		return instructionCase{req, func() string { return compact.ContinuationSummary(summary, path) }}
	}
}

func TestDifferentialInstruction(t *testing.T) {
	ref := startReference(t)
	r := rand.New(rand.NewPCG(*diffSeed, 0x1257))
	const n = 20000
	cases := make([]instructionCase, n)
	reqs := make([]protocol.Request, n)
	for i := range cases {
		cases[i] = genInstructionCase(r)
		reqs[i] = cases[i].req
	}
	answers, err := ref.DoAll(reqs)
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range answers {
		if a.Error != nil || a.Text == nil {
			t.Fatalf("case %d: reference answered %+v to %s", i, a, describe(reqs[i]))
		}
		if got := cases[i].want(); got != *a.Text {
			t.Fatalf("case %d: %s\n got %q\nwant %q", i, describe(reqs[i]), got, *a.Text)
		}
	}
}

func describe(req protocol.Request) string {
	b, _ := protocol.MarshalRequest(req)
	return fmt.Sprintf("request %s", b)
}

// TestNaivePortDisagrees shows the differential test has teeth: the port a first attempt
// writes with Go's regexp and strings.TrimSpace (naiveExtract, bench_test.go) must be caught
// disagreeing with the reference on the same generated inputs.
func TestNaivePortDisagrees(t *testing.T) {
	ref := startReference(t)
	r := rand.New(rand.NewPCG(3, 3))
	const n = 20000
	texts := make([]string, n)
	reqs := make([]protocol.Request, n)
	for i := range texts {
		texts[i] = textgen.Response(r, 0)
		reqs[i] = protocol.Request{Op: "extract", Text: protocol.Str(texts[i])}
	}
	answers, err := ref.DoAll(reqs)
	if err != nil {
		t.Fatal(err)
	}
	bad := 0
	for i, a := range answers {
		want, wantOK := refSummary(t, a)
		if got, ok := naiveExtract(texts[i]); got != want || ok != wantOK {
			bad++
		}
	}
	t.Logf("the naive regexp port disagrees with the reference on %d of %d inputs", bad, n)
	if bad < n/100 {
		t.Errorf("the naive port disagrees on only %d of %d inputs: the generator misses the JavaScript traps", bad, n)
	}
}
