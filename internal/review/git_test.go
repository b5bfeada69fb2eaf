package review

import (
	"os"
	"os/exec"
	"path/filepath"
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
