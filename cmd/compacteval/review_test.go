package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/internal/review"
)

// TestReviewRevisions reviews a commit of this repository against itself: compacteval is
// built once (one commit) and nothing changes. It runs in a clone of the repository made
// at the start, its HEAD detached at the commit this checkout's HEAD named then, so that
// what other processes do to this repository meanwhile (commits, worktrees, other reviews)
// does not count.
func TestReviewRevisions(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP review of git revisions: git is not on PATH")
	}
	commit, err := exec.Command("git", "-C", repoRoot, "rev-parse", "--verify", "--quiet", "HEAD^{commit}").Output()
	if err != nil {
		t.Skipf("SKIP review of git revisions: %s is not a git checkout with a commit", repoRoot)
	}
	if testing.Short() {
		t.Skip("SKIP review of git revisions in -short mode: it builds compacteval")
	}
	t.Setenv("GOPROXY", "off") // the build uses the module cache, never the network
	t.Setenv("GOTOOLCHAIN", "local")
	clone := filepath.Join(t.TempDir(), "repo")
	// The review's temporary worktree and binary go below tmp, which must be empty after.
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	if os.TempDir() != tmp {
		t.Skipf("SKIP review of git revisions: TMPDIR does not move os.TempDir here (%s)", os.TempDir())
	}
	// --shared borrows the objects (no copy, and the commit is there even when no branch
	// names it); --no-checkout leaves the work tree empty, as the review builds in a
	// worktree of its own. The clone's HEAD is the commit, detached: nothing moves it.
	gitRun := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("git", args...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	head := strings.TrimSpace(string(commit))
	gitRun("clone", "--quiet", "--shared", "--no-checkout", repoRoot, clone)
	gitRun("-C", clone, "update-ref", "--no-deref", "HEAD", head)
	// The review reads the gate.yaml of the folder it runs in, as in the repository.
	if cfg, err := exec.Command("git", "-C", clone, "show", head+":gate.yaml").Output(); err == nil {
		if err := os.WriteFile(filepath.Join(clone, "gate.yaml"), cfg, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	worktrees := func() []string {
		var paths []string
		for _, line := range strings.Split(gitRun("-C", clone, "worktree", "list", "--porcelain"), "\n") {
			if path, ok := strings.CutPrefix(line, "worktree "); ok {
				paths = append(paths, path)
			}
		}
		return paths
	}
	t.Chdir(clone)
	var out, errBuf bytes.Buffer
	code := run(context.Background(), []string{"review", "-base", "HEAD", "-head", "HEAD", "-drift-n", "1", "-json"}, strings.NewReader(""), &out, &errBuf)
	errOut := errBuf.String()
	if code != exitOK {
		t.Fatalf("review -base HEAD -head HEAD = %d, stderr %q; want 0", code, errOut)
	}
	var r review.Review
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.Base.Kind != review.KindGit || len(r.Extractors) != len(r.Head.Profiles) || len(r.Extractors) < 2 {
		t.Errorf("base kind %s, %d extractors compared of %v; want git and every profile", r.Base.Kind, len(r.Extractors), r.Head.Profiles)
	}
	if want := fmt.Sprintf("git HEAD (%.12s)", head); r.Base.Desc != want || r.Head.Desc != want {
		t.Errorf("base %q, head %q; want both %q, the commit the clone was made at", r.Base.Desc, r.Head.Desc, want)
	}
	for _, ec := range r.Extractors {
		if ec.Changed != 0 {
			t.Errorf("%s changed on %d cases between HEAD and HEAD", ec.Name, ec.Changed)
		}
	}
	// The commit has compacteval-pipe, which the review builds instead of the whole tool
	// (an older commit, without it, gets the whole tool: review.TestCommandAt).
	built := "building compacteval at"
	if _, err := exec.Command("git", "-C", clone, "cat-file", "-e", head+":cmd/compacteval-pipe/main.go").Output(); err == nil {
		built = "building compacteval-pipe at"
	}
	if r.Instruction.Changed || !r.Instruction.BaseOK || strings.Count(errOut, "review: building ") != 1 || !strings.Contains(errOut, built) {
		t.Errorf("instruction changed %v (base ok %v); builds: %q; want one build (%s) and no change", r.Instruction.Changed, r.Instruction.BaseOK, errOut, built)
	}
	if r.EvalCode == nil || r.EvalCode.Differs {
		t.Errorf("eval_code = %+v, want the same eval/ on both sides", r.EvalCode)
	}
	if wt := worktrees(); len(wt) != 1 {
		t.Errorf("review left git worktrees behind: %v", wt)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "*")); len(left) != 0 {
		t.Errorf("review left temporary files behind: %v", left)
	}
}
