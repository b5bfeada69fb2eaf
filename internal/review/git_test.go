package review

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCommandAt: a revision with cmd/compacteval-pipe builds it; an older one, without it,
// builds the whole tool.
func TestCommandAt(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: git is not on PATH")
	}
	dir := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		out, err := git(dir, args...)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	write := func(name string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("package main\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("init", "--quiet")
	commit := func(msg string) string {
		run("add", "-A")
		run("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", msg)
		return run("rev-parse", "HEAD")
	}
	write("cmd/compacteval/main.go")
	old := commit("the tool only")
	write("cmd/compacteval-pipe/main.go")
	withPipe := commit("and the pipe")
	for _, tc := range []struct {
		commit, want string
	}{
		{old, toolCommand},
		{withPipe, pipeCommand},
	} {
		if got := commandAt(dir, tc.commit); got != tc.want {
			t.Errorf("commandAt(%.7s) = %q, want %q", tc.commit, got, tc.want)
		}
	}
}

// TestPruneStale: the temporary folder of a review that was killed (its owner process is
// gone) goes, and so does the registration of the worktree in it; a running review's
// folder and worktree stay.
func TestPruneStale(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: git is not on PATH")
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	if os.TempDir() != tmp {
		t.Skipf("SKIP: TMPDIR does not move os.TempDir here (%s)", os.TempDir())
	}
	repo := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		out, err := git(repo, args...)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	run("init", "--quiet")
	run("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "--quiet", "--allow-empty", "-m", "first")
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	folder := func(name string, owner int) string {
		t.Helper()
		dir := filepath.Join(tmp, tmpPrefix+name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(owner)), 0o644); err != nil {
			t.Fatal(err)
		}
		wt := filepath.Join(dir, "worktree-"+name)
		run("worktree", "add", "--quiet", "--detach", wt, "HEAD")
		return wt
	}
	stale := folder("killed", dead.Process.Pid)
	live := folder("running", os.Getpid())
	pruneStale(repo)

	if _, err := os.Stat(filepath.Dir(stale)); !os.IsNotExist(err) {
		t.Errorf("the killed review's folder is still there (stat: %v)", err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("the running review's worktree went: %v", err)
	}
	var listed []string
	for _, line := range strings.Split(run("worktree", "list", "--porcelain"), "\n") {
		if p, ok := strings.CutPrefix(line, "worktree "); ok {
			listed = append(listed, filepath.Base(p))
		}
	}
	if want := []string{filepath.Base(repo), "worktree-running"}; strings.Join(listed, " ") != strings.Join(want, " ") {
		t.Errorf("git worktree list after pruneStale = %v, want %v", listed, want)
	}
}
