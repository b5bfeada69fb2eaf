package review

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/internal/gate"
	"github.com/compacteval/compacteval/internal/protocol"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "update golden files")

// envServe makes the test binary a version under review: it answers the protocol on stdin
// as the variant it names (serveVariant) and exits.
const envServe = "COMPACTEVAL_REVIEW_SERVE"

func TestMain(m *testing.M) {
	if v := os.Getenv(envServe); v != "" {
		if err := serveVariant(v, os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// briefer is what the "halve" variant appends to the instruction.
const briefer = " Be brief."

// serveVariant answers as compacteval pipe does, changed by variant:
//
//   - same: not changed;
//   - robust-seed: seed answers with robust's extraction, and windmill@67ef1eb is gone;
//   - halve: seed keeps the first half of the lines of its summary, and the instruction
//     ends with briefer;
//   - leak-tail: seed's summary of an eval case of testdata/corpus ends with the text of
//     the case's kept tail, which the summary should not re-tell.
func serveVariant(variant string, r io.Reader, w io.Writer) error {
	tails := map[string]string{}
	if variant == "leak-tail" {
		c, err := corpus.Open([]string{"testdata/corpus"})
		if err != nil {
			return err
		}
		for _, k := range c.Cases {
			if n := len(k.Conversation); n > 0 && k.KeptTail > 0 {
				var b strings.Builder
				for _, m := range k.Conversation[n-k.KeptTail:] {
					b.WriteString("\n" + m.Text)
					for _, tc := range m.ToolCalls {
						b.WriteString("\n" + tc.Input)
					}
				}
				tails[k.Response] = b.String()
			}
		}
	}
	names := compact.ExtractorNames()
	if variant == "robust-seed" {
		names = slices.DeleteFunc(names, func(n string) bool { return n == "windmill@67ef1eb" })
	}
	in := bufio.NewScanner(r)
	in.Buffer(nil, 1<<30)
	out := bufio.NewWriter(w)
	for in.Scan() {
		var req protocol.Request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			return err
		}
		resp := protocol.Answer(in.Bytes())
		profile := "seed"
		if req.Profile != nil {
			profile = *req.Profile
		}
		switch {
		case req.Op == "extract" && !slices.Contains(names, profile):
			msg := fmt.Sprintf("unknown profile %q (have %s)", profile, strings.Join(names, ", "))
			resp = protocol.Response{Error: &msg}
		case req.Op == "extract" && profile == "seed" && variant == "robust-seed":
			robust, _ := compact.Lookup("robust")
			resp = summaryResponse(robust.Extract(*req.Text))
		case req.Op == "extract" && profile == "seed" && variant == "halve":
			e := compact.Extract(*req.Text)
			if e.OK {
				lines := strings.Split(e.Summary, "\n")
				e.Summary = strings.Join(lines[:(len(lines)+1)/2], "\n")
			}
			resp = summaryResponse(e)
		case req.Op == "extract" && profile == "seed" && variant == "leak-tail":
			e := compact.Extract(*req.Text)
			if tail, ok := tails[*req.Text]; ok && e.OK {
				e.Summary += tail
			}
			resp = summaryResponse(e)
		case req.Op == "constants" && variant == "halve":
			*resp.Instruction += briefer
		case req.Op == "instruction" && variant == "halve" && resp.Text != nil:
			text := compact.BuildInstructionWith(compact.Instruction+briefer, extractor.OptionsOf(req))
			resp.Text = &text
		}
		resp.ID = req.ID
		b, err := json.Marshal(resp)
		if err != nil {
			return err
		}
		out.Write(append(b, '\n'))
		if err := out.Flush(); err != nil {
			return err
		}
	}
	return in.Err()
}

func summaryResponse(e compact.Extraction) protocol.Response {
	resp := protocol.Response{HasSummary: true}
	if e.OK {
		resp.Summary = &e.Summary
	}
	return resp
}

// variant returns the spec of the test binary serving variant.
func variant(t *testing.T, name string) Spec {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Spec{Command: fmt.Sprintf("%s=%s exec '%s'", envServe, name, exe)}
}

func openPair(t *testing.T, base, head Spec) (*Version, *Version) {
	t.Helper()
	b, h, err := Open(context.Background(), base, head, OpenOptions{})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Errorf("close base: %v", err)
		}
		if err := h.Close(); err != nil {
			t.Errorf("close head: %v", err)
		}
	})
	return b, h
}

func loadCases(t *testing.T, dir string) *corpus.Corpus {
	t.Helper()
	c, err := corpus.Open([]string{dir})
	if err != nil || len(c.Problems) > 0 {
		t.Fatalf("load %s: %v %v", dir, err, c.Problems)
	}
	return c
}

// TestCompareExtractorChange runs compacteval's own pipe against one whose seed answers
// as robust, and checks each flip against the two extractors run here.
func TestCompareExtractorChange(t *testing.T) {
	cases := loadCases(t, "../../corpus/cases")
	b, h := openPair(t, variant(t, "same"), variant(t, "robust-seed"))
	r, err := Compare(context.Background(), b, h, Options{Corpus: cases, DriftSeed: 1, DriftN: 3, Gate: gate.DefaultConfig()})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Absent{{Profile: "windmill@67ef1eb", In: "base"}}, r.Absent); diff != "" {
		t.Errorf("Absent mismatch (-want +got):\n%s", diff)
	}
	var names []string
	for _, ec := range r.Extractors {
		names = append(names, ec.Name)
	}
	if want := slices.DeleteFunc(compact.ExtractorNames(), func(n string) bool { return n == "windmill@67ef1eb" }); !cmp.Equal(want, names) {
		t.Errorf("compared extractors = %v, want %v", names, want)
	}
	seed, _ := compact.Lookup("seed")
	robust, _ := compact.Lookup("robust")
	want := map[string]string{}
	for _, c := range cases.Cases {
		s, x := seed.Extract(c.Response), robust.Extract(c.Response)
		switch {
		case s.OK == x.OK && s.Summary == x.Summary:
		case c.Matches(x):
			want[c.ID] = Toward
		case c.Matches(s):
			want[c.ID] = Away
		default:
			want[c.ID] = Neither
		}
	}
	got := map[string]string{}
	for _, ec := range r.Extractors {
		for _, cat := range ec.Categories {
			for _, c := range cat.Cases {
				if ec.Name != "seed" {
					t.Errorf("%s changed on %s, but only seed differs", ec.Name, c.ID)
				}
				if cat.Category != strings.Split(c.ID, "/")[0] {
					t.Errorf("%s is listed under category %s", c.ID, cat.Category)
				}
				got[c.ID] = c.Direction
			}
		}
	}
	if len(want) == 0 {
		t.Fatal("seed and robust agree on every case: the test checks nothing")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("changed cases and directions mismatch (-want +got):\n%s", diff)
	}
	if r.Instruction.Changed || anyRenderDiffers(r.Renders) {
		t.Errorf("texts changed, but the variant changes only an extractor: %+v", r.Instruction)
	}
	if r.Drift == nil || r.Eval == nil || len(r.Eval.Cases) == 0 {
		t.Fatalf("drift or eval missing: %+v, %+v", r.Drift, r.Eval)
	}
	if !r.Passed() {
		t.Errorf("robust in place of seed regressed: %v", r.Regressions)
	}
}

// TestCompareRegression checks a change that makes seed worse: cases move away, eval
// coverage falls, and the instruction's change is recognised in every render.
func TestCompareRegression(t *testing.T) {
	cases := loadCases(t, "testdata/corpus")
	b, h := openPair(t, variant(t, "same"), variant(t, "halve"))
	r, err := Compare(context.Background(), b, h, Options{Corpus: cases, DriftSeed: 1, DriftN: 2, Gate: gate.DefaultConfig()})
	if err != nil {
		t.Fatal(err)
	}
	if want := []Edit{{Op: "+", Text: briefer}}; !cmp.Equal(want, changes(r.Instruction.Diff)) {
		t.Errorf("instruction changes = %v, want %v", changes(r.Instruction.Diff), want)
	}
	g := renderGroups(r)
	for _, tc := range r.Renders {
		want := "the instruction text's change only"
		if strings.HasPrefix(tc.Name, "continuation") {
			want = "unchanged"
		}
		if got := g.label(tc); got != want {
			t.Errorf("render %q: %q, want %q", tc.Name, got, want)
		}
	}
	metrics := map[string]bool{}
	for _, reg := range r.Regressions {
		metrics[reg.Case+" "+reg.Metric] = true
	}
	for _, m := range []string{"well-formed/go-grpc-retry-deadline seed intended", "(eval) coverage", "(all) seed drift_exact"} {
		if !metrics[m] {
			t.Errorf("regressions lack %q: %v", m, r.Regressions)
		}
	}

	// The versions' commands name the test binary, which moves between runs; the drift
	// numbers change with every new operator, and the golden is about the layout.
	r.Base.Desc, r.Head.Desc = "compacteval pipe", "compacteval pipe with seed's summaries halved"
	r.Drift = nil
	r.Regressions = slices.DeleteFunc(r.Regressions, func(g gate.Regression) bool { return strings.HasSuffix(g.Metric, "drift_exact") })
	var md bytes.Buffer
	if err := Markdown(&md, r); err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/halve.md", md.Bytes())
	page, err := HTML(r)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := HTML(r)
	if !bytes.Equal(page, again) {
		t.Error("HTML gives different bytes for the same review")
	}
	for _, want := range []string{"<ins>" + briefer + "</ins>", `class="badge away"`, `<table class="diff">`, "regressions:"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	var doc map[string]any
	data, _ := json.Marshal(r)
	if err := json.Unmarshal(data, &doc); err != nil || doc["schema_version"] != float64(SchemaVersion) {
		t.Errorf("JSON: %v, schema_version %v", err, doc["schema_version"])
	}
}

// golden compares got with file, or writes it with -update.
func golden(t *testing.T, file string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run 'go test ./internal/review -run %s -update' to create it)", err, t.Name())
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s\nYou can run 'go test ./internal/review -run %s -update' to update it; read the diff first.", file, diff, t.Name())
	}
}

func TestInstructionTexts(t *testing.T) {
	dir := t.TempDir()
	head := strings.Replace(compact.Instruction, "Do NOT call any tools.", "Do NOT call any tools, not even one.", 1)
	files := map[string]string{"base.txt": compact.Instruction + "\n", "head.md": head}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, h := openPair(t, Spec{File: filepath.Join(dir, "base.txt")}, Spec{File: filepath.Join(dir, "head.md")})
	r, err := Compare(context.Background(), b, h, Options{Gate: gate.DefaultConfig()})
	if err != nil {
		t.Fatal(err)
	}
	if want := []Edit{{Op: "+", Text: ", not even one"}}; !cmp.Equal(want, changes(r.Instruction.Diff)) {
		t.Errorf("instruction changes = %v, want %v (the file's final line break is dropped)", changes(r.Instruction.Diff), want)
	}
	if len(r.Renders) != 12 {
		t.Errorf("%d renders, want the 12 instructions (a text has no continuation summary)", len(r.Renders))
	}
	for _, tc := range r.Renders {
		if !tc.Changed || !sameEdits(changes(tc.Diff), changes(r.Instruction.Diff)) {
			t.Errorf("render %q: changed %v, %v; want the instruction's change", tc.Name, tc.Changed, changes(tc.Diff))
		}
	}
	if len(r.Extractors) != 0 || r.Drift != nil || r.Eval != nil || !r.Passed() {
		t.Errorf("texts alone: extractors %d, drift %v, eval %v, passed %v; want none and a pass", len(r.Extractors), r.Drift, r.Eval, r.Passed())
	}
	if len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "base is an instruction text, head is an instruction text") {
		t.Errorf("notes = %q, want one saying why extractors were not compared", r.Notes)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	bad, text := filepath.Join(dir, "bad.ts"), filepath.Join(dir, "prompt.txt")
	os.WriteFile(bad, []byte("export const x: number = ;\n"), 0o644)
	os.WriteFile(text, []byte("Summarize.\n"), 0o644)
	for _, tc := range []struct {
		name       string
		base, head Spec
		want       string
	}{
		{name: "two sources", base: Spec{Rev: "HEAD", File: "x.ts"}, head: Spec{File: "y.txt"}, want: "base: want exactly one"},
		{name: "no source", base: Spec{File: "x.txt"}, head: Spec{}, want: "head: want exactly one"},
		{name: "missing file", base: Spec{File: filepath.Join(dir, "missing.txt")}, head: Spec{File: bad}, want: "missing.txt"},
		{name: "TypeScript error", base: Spec{File: text}, head: Spec{File: bad}, want: "bad.ts:1:"},
		{name: "not the protocol", base: Spec{Command: "echo hello"}, head: Spec{File: bad}, want: "does not answer the protocol"},
	} {
		b, h, err := Open(context.Background(), tc.base, tc.head, OpenOptions{})
		if err == nil {
			b.Close()
			h.Close()
			t.Errorf("%s: Open succeeded, want an error holding %q", tc.name, tc.want)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Open error %q, want it to hold %q", tc.name, err, tc.want)
		}
	}
}

// TestCompareTailLeakage: a head whose summary re-tells the kept tail fails the review on
// tail leakage, as the gate fails a run whose leakage rose (the review compares with
// gate.Check; its own copy of the checks once missed this metric).
func TestCompareTailLeakage(t *testing.T) {
	cases := loadCases(t, "testdata/corpus")
	b, h := openPair(t, variant(t, "same"), variant(t, "leak-tail"))
	r, err := Compare(context.Background(), b, h, Options{Corpus: cases, DriftSeed: 1, DriftN: 1, Gate: gate.DefaultConfig()})
	if err != nil {
		t.Fatal(err)
	}
	var leak []string
	for _, reg := range r.Regressions {
		if strings.Contains(reg.Metric, "tail_leakage") {
			leak = append(leak, reg.String())
		}
	}
	if len(leak) == 0 || r.Passed() {
		t.Fatalf("a tail-leakage rise did not fail the review: regressions %v", r.Regressions)
	}
	if e := r.Eval; e == nil || e.TailLeakage.Delta == nil || *e.TailLeakage.Delta <= 0 {
		t.Errorf("eval tail leakage change = %+v, want a rise", r.Eval)
	}
	// The same two reports through the gate give the same regressions.
	res, err := gate.Check(r.Reports[0], r.Reports[1], func() gate.Config { c := gate.DefaultConfig(); c.Problems = "pass"; return c }())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(res.Regressions, r.Regressions); diff != "" {
		t.Errorf("review and gate disagree (-gate +review):\n%s", diff)
	}
}
