package review

import (
	"context"
	"github.com/compacteval/compacteval/internal/testhelp/testref"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/gate"
	"github.com/google/go-cmp/cmp"
)

// seedModule returns the path of ../shared/seed/compaction.ts, or skips the test when it or
// node is missing. With COMPACTEVAL_REQUIRE_REFERENCE=1 (set by .ci/run) that fails instead.
func seedModule(t *testing.T) string {
	t.Helper()
	module, err := filepath.Abs("../../../shared/seed/compaction.ts")
	if err == nil {
		_, err = os.Stat(module)
	}
	if err == nil {
		_, err = exec.LookPath("node")
	}
	if err != nil {
		testref.Missing(t, "review of the seed module (needs ../shared and node)", err)
	}
	return module
}

// The older seed module that the proof tests review against the real one: its
// buildCompactionInstruction has no kept-tail note, and its extractSummary no loose match
// (tags anywhere): without a line-anchored block it takes the whole text minus analysis.
var olderSeedEdits = [][2]string{
	{
		"\tconst tail = options.keptTail && options.keptTail.count > 0 ? keptTailNote(options.keptTail) : \"\";\n" +
			"\tparts.push(`<system-reminder>\\n${notice}${tail}\\n${COMPACTION_INSTRUCTION}\\n</system-reminder>`);",
		"\tparts.push(`<system-reminder>\\n${notice}\\n${COMPACTION_INSTRUCTION}\\n</system-reminder>`);",
	},
	{
		"\tconst loose = withoutAnalysis.match(/<summary>([\\s\\S]*)<\\/summary>/);\n" +
			"\tif (loose) return loose[1].trim() || undefined;\n",
		"",
	},
}

// seedVersions writes the seed module as head.ts and the older one as base.ts in a
// temporary folder and returns their paths.
func seedVersions(t *testing.T) (base, head string) {
	t.Helper()
	src, err := os.ReadFile(seedModule(t))
	if err != nil {
		t.Fatal(err)
	}
	older := string(src)
	for _, e := range olderSeedEdits {
		if !strings.Contains(older, e[0]) {
			t.Fatalf("the seed module no longer holds %q: update olderSeedEdits", e[0])
		}
		older = strings.Replace(older, e[0], e[1], 1)
	}
	dir := t.TempDir()
	base, head = filepath.Join(dir, "base.ts"), filepath.Join(dir, "head.ts")
	if err := os.WriteFile(base, []byte(older), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(head, src, 0o644); err != nil {
		t.Fatal(err)
	}
	return base, head
}

var analysisBlocks = regexp.MustCompile(`(?s)<analysis>.*?</analysis>`)

// expectedFlips returns the direction of every case whose output differs between the older
// module and the seed module, worked out without either: compact.Extract is the seed
// module (byte for byte, as the differential tests prove), and the older module differs
// only where compact.Extract takes the loose path, where it returns the whole text minus
// analysis blocks instead.
func expectedFlips(cases []*corpus.Case) map[string]string {
	want := map[string]string{}
	for _, c := range cases {
		head := compact.Extract(c.Response)
		if head.Path != compact.PathLoose {
			continue
		}
		whole := compact.TrimJS(analysisBlocks.ReplaceAllString(c.Response, ""))
		base := compact.Extraction{Summary: whole, OK: whole != ""}
		if base.OK == head.OK && base.Summary == head.Summary {
			continue
		}
		switch {
		case c.Matches(head):
			want[c.ID] = Toward
		case c.Matches(base):
			want[c.ID] = Away
		default:
			want[c.ID] = Neither
		}
	}
	return want
}

// TestReviewSeedModule reviews a change of the real seed module, older to current, run
// under Node: the kept-tail note appears in exactly the renders with a kept tail, and the
// flipped cases are those worked out independently, in the right direction.
func TestReviewSeedModule(t *testing.T) {
	baseFile, headFile := seedVersions(t)
	cases := loadCases(t, "../../corpus/cases")
	b, h := openPair(t, Spec{File: baseFile}, Spec{File: headFile})
	for _, v := range []*Version{b, h} {
		if v.Kind != KindModule || !cmp.Equal(v.Profiles, []string{"seed"}) {
			t.Errorf("%s: kind %s, profiles %v; want a module with seed only", v.Label, v.Kind, v.Profiles)
		}
	}
	r, err := Compare(context.Background(), b, h, Options{Corpus: cases, DriftSeed: 1, DriftN: 2, Gate: gate.DefaultConfig()})
	if err != nil {
		t.Fatal(err)
	}

	if r.Instruction.Changed || !r.Instruction.BaseOK || !r.Instruction.HeadOK {
		t.Errorf("instruction: changed %v, base ok %v, head ok %v; want the same text on both sides", r.Instruction.Changed, r.Instruction.BaseOK, r.Instruction.HeadOK)
	}
	note := []Edit{{Op: "+", Text: compact.KeptTailNote(compact.KeptTail{Count: renderTail, Opening: renderOpening})}}
	for _, tc := range r.Renders {
		if !strings.Contains(tc.Name, "kept tail") {
			if tc.Changed {
				t.Errorf("render %q changed without a kept tail: %v", tc.Name, changes(tc.Diff))
			}
			continue
		}
		if diff := cmp.Diff(note, changes(tc.Diff)); diff != "" {
			t.Errorf("render %q: changes mismatch (-want +got), want the kept-tail sentence added:\n%s", tc.Name, diff)
		}
	}

	want := expectedFlips(cases.Cases)
	if len(want) == 0 {
		t.Fatal("no case takes the loose path: the test checks nothing")
	}
	got := map[string]string{}
	for _, cat := range r.Extractors[0].Categories {
		for _, c := range cat.Cases {
			got[c.ID] = c.Direction
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("flipped cases mismatch (-want +got):\n%s", diff)
	}
	away := 0
	for _, d := range want {
		if d == Away {
			away++
		}
	}
	if r.Passed() != (away == 0) {
		t.Errorf("Passed() = %v with %d cases moving away; regressions %v", r.Passed(), away, r.Regressions)
	}
}
