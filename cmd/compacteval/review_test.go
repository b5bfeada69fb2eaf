package main

import (
	"encoding/json"
	"github.com/compacteval/compacteval/internal/testref"
	"html/template"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/internal/review"
	"github.com/google/go-cmp/cmp"
)

func TestReviewUsageErrors(t *testing.T) {
	text := filepath.Join(t.TempDir(), "prompt.txt")
	os.WriteFile(text, []byte("Summarize.\n"), 0o644)
	badConfig := filepath.Join(t.TempDir(), "gate.yaml")
	os.WriteFile(badConfig, []byte("version: 1\nalowed_drop: {}\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-base-file", text}, "exactly one of -head, -head-file and -head-cmd"},
		{[]string{"-base", "HEAD", "-base-file", text, "-head-file", text}, "exactly one of -base, -base-file and -base-cmd"},
		{[]string{"-base-file", text, "-head-file", text, "extra"}, `unexpected argument "extra"`},
		{[]string{"-base-file", text, "-head-file", text, "-drift-n", "-1"}, "-drift-n must not be negative"},
		{[]string{"-base-file", text, "-head-file", text, "-config", badConfig}, "alowed_drop"},
		{[]string{"-base-file", text, "-head-file", text, "-corpus", "no/such/dir"}, "no/such/dir"},
		{[]string{"-base-file", text + ".missing", "-head-file", text}, "prompt.txt.missing"},
		{[]string{"-base", "no-such-revision-xyz", "-head-file", text}, "no-such-revision-xyz"},
	} {
		code, _, errOut := runCLI(t, "", append([]string{"review"}, tc.args...)...)
		if code != exitError || !strings.Contains(errOut, tc.want) {
			t.Errorf("review %s = %d, %q; want 2 and %q", strings.Join(tc.args, " "), code, errOut, tc.want)
		}
	}
}

func TestReviewInstructionTexts(t *testing.T) {
	dir := t.TempDir()
	base, head := filepath.Join(dir, "v1.txt"), filepath.Join(dir, "v2.txt")
	os.WriteFile(base, []byte(compact.Instruction+"\n"), 0o644)
	os.WriteFile(head, []byte(strings.Replace(compact.Instruction, "thorough in capturing", "exhaustive in capturing", 1)+"\n"), 0o644)
	md := filepath.Join(dir, "review.md")
	code, out, errOut := runCLI(t, "", "review", "-base-file", base, "-head-file", head, "-markdown", md)
	if code != exitOK {
		t.Fatalf("review of two instruction texts = %d, stderr %q; want 0: a text change never fails", code, errOut)
	}
	if !strings.Contains(out, "!This summary should be [-thorough-]{+exhaustive+} in capturing") {
		t.Errorf("review output lacks the word diff of the changed line:\n%s", out)
	}
	if written, _ := os.ReadFile(md); string(written) != out {
		t.Errorf("-markdown wrote %d bytes, not what stdout shows", len(written))
	}
}

// olderSeed returns the seed module without the kept-tail note and without the loose match
// of extractSummary (as internal/review's proof test builds it).
func olderSeed(t *testing.T, src string) string {
	t.Helper()
	for _, e := range [][2]string{
		{"\tconst tail = options.keptTail && options.keptTail.count > 0 ? keptTailNote(options.keptTail) : \"\";\n", ""},
		{"${notice}${tail}\\n", "${notice}\\n"},
		{"\tconst loose = withoutAnalysis.match(/<summary>([\\s\\S]*)<\\/summary>/);\n\tif (loose) return loose[1].trim() || undefined;\n", ""},
	} {
		if !strings.Contains(src, e[0]) {
			t.Fatalf("the seed module no longer holds %q", e[0])
		}
		src = strings.Replace(src, e[0], e[1], 1)
	}
	return src
}

// TestReviewSeedModule reviews the real seed module against an older version, under Node,
// both ways: older to current moves cases toward intended (exit 0), current to older moves
// the same cases away (exit 1).
func TestReviewSeedModule(t *testing.T) {
	module := filepath.Join(repoRoot, "..", "shared", "seed", "compaction.ts")
	src, err := os.ReadFile(module)
	if err == nil {
		_, err = exec.LookPath("node")
	}
	if err != nil {
		testref.Missing(t, "review of the seed module (needs ../shared and node)", err)
	}
	dir := t.TempDir()
	older, current := filepath.Join(dir, "older.ts"), filepath.Join(dir, "current.ts")
	os.WriteFile(older, []byte(olderSeed(t, string(src))), 0o644)
	os.WriteFile(current, src, 0o644)

	html := filepath.Join(dir, "review.html")
	code, out, errOut := runCLI(t, "", "review", "-base-file", older, "-head-file", current, "-drift-n", "1", "-json", "-html", html)
	if code != exitOK {
		t.Fatalf("review older -> current = %d, stderr %q; want 0", code, errOut)
	}
	var forward review.Review
	if err := json.Unmarshal([]byte(out), &forward); err != nil {
		t.Fatalf("review -json is not one JSON document: %v\n%.300s", err, out)
	}
	note := "{+" + compact.KeptTailNote(compact.KeptTail{Count: 4, Opening: "Run the tests again with -race"}) + "+}"
	page, _ := os.ReadFile(html)
	if !strings.Contains(string(page), "<ins>"+template.HTMLEscapeString(strings.Trim(note, "{+}"))+"</ins>") || strings.Contains(string(page), "<script") {
		t.Errorf("review.html lacks the kept-tail note as an insertion, or is not self-contained")
	}
	toward := map[string]bool{}
	for _, cat := range forward.Extractors[0].Categories {
		for _, c := range cat.Cases {
			if c.Direction == review.Toward {
				toward[c.ID] = true
			}
		}
	}
	if len(toward) == 0 || forward.Extractors[0].Away != 0 {
		t.Fatalf("older -> current: %d cases toward intended, %d away; want some toward and none away", len(toward), forward.Extractors[0].Away)
	}

	md := filepath.Join(dir, "review.md")
	code, out, errOut = runCLI(t, "", "review", "-base-file", current, "-head-file", older, "-drift-n", "1", "-json", "-markdown", md)
	if code != exitProblem {
		t.Fatalf("review current -> older = %d, stderr %q; want 1", code, errOut)
	}
	var backward review.Review
	if err := json.Unmarshal([]byte(out), &backward); err != nil {
		t.Fatal(err)
	}
	away := map[string]bool{}
	for _, g := range backward.Regressions {
		if g.Metric == "seed intended" {
			away[g.Case] = true
		}
	}
	if diff := cmp.Diff(toward, away); diff != "" {
		t.Errorf("cases toward intended one way and away the other mismatch (-toward +away):\n%s", diff)
	}
	if text, _ := os.ReadFile(md); !strings.Contains(string(text), "[-"+strings.Trim(note, "{+}")+"-]") {
		t.Errorf("current -> older: the Markdown does not show the kept-tail note removed")
	}
}

// TestReviewRevisions reviews this repository's HEAD against itself: compacteval is built
// once (one commit) and nothing changes.
func TestReviewRevisions(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP review of git revisions: git is not on PATH")
	}
	if err := exec.Command("git", "-C", repoRoot, "rev-parse", "--verify", "--quiet", "HEAD^{commit}").Run(); err != nil {
		t.Skipf("SKIP review of git revisions: %s is not a git checkout with a commit", repoRoot)
	}
	if testing.Short() {
		t.Skip("SKIP review of git revisions in -short mode: it builds compacteval")
	}
	t.Setenv("GOPROXY", "off") // the build uses the module cache, never the network
	t.Setenv("GOTOOLCHAIN", "local")
	// The worktrees review registers (its temporary folders): none may be left. Others may
	// come and go meanwhile (a developer's own).
	worktrees := func() string {
		out, _ := exec.Command("git", "-C", repoRoot, "worktree", "list", "--porcelain").Output()
		var mine []string
		for _, l := range strings.Split(string(out), "\n") {
			if strings.HasPrefix(l, "worktree ") && strings.Contains(l, "compacteval-review-git-") {
				mine = append(mine, l)
			}
		}
		return strings.Join(mine, "\n")
	}
	before := worktrees()
	code, out, errOut := runCLI(t, "", "review", "-base", "HEAD", "-head", "HEAD", "-drift-n", "1", "-json")
	if code != exitOK {
		t.Fatalf("review -base HEAD -head HEAD = %d, stderr %q; want 0", code, errOut)
	}
	var r review.Review
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Base.Kind != review.KindGit || len(r.Extractors) != len(r.Head.Profiles) || len(r.Extractors) < 2 {
		t.Errorf("base kind %s, %d extractors compared of %v; want git and every profile", r.Base.Kind, len(r.Extractors), r.Head.Profiles)
	}
	for _, ec := range r.Extractors {
		if ec.Changed != 0 {
			t.Errorf("%s changed on %d cases between HEAD and HEAD", ec.Name, ec.Changed)
		}
	}
	if r.Instruction.Changed || !r.Instruction.BaseOK || strings.Count(errOut, "building compacteval") != 1 {
		t.Errorf("instruction changed %v (base ok %v); builds: %q; want one build and no change", r.Instruction.Changed, r.Instruction.BaseOK, errOut)
	}
	for _, w := range strings.Split(worktrees(), "\n") {
		if w != "" && !strings.Contains(before, w) {
			t.Errorf("review left a git worktree: %s", w)
		}
	}
}
