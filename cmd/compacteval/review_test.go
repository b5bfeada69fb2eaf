package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/internal/review"
)

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
	// The review's temporary worktree goes below tmp, so that what other checkouts of the
	// repository add and remove meanwhile (other reviews) does not count.
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	if os.TempDir() != tmp {
		t.Skipf("SKIP review of git revisions: TMPDIR does not move os.TempDir here (%s)", os.TempDir())
	}
	worktrees := func() []string {
		out, err := exec.Command("git", "-C", repoRoot, "worktree", "list", "--porcelain").Output()
		if err != nil {
			t.Fatalf("git worktree list: %v", err)
		}
		var mine []string
		for _, line := range strings.Split(string(out), "\n") {
			if path, ok := strings.CutPrefix(line, "worktree "); ok && strings.HasPrefix(path, tmp) {
				mine = append(mine, path)
			}
		}
		return mine
	}
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
	if left := worktrees(); len(left) != 0 {
		t.Errorf("review left git worktrees behind: %v", left)
	}
}
