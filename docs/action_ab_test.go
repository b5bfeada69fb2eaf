package docs

import (
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/internal/record/recordtest"
)

// TestActionABReview runs the action's A/B review step and its comment step, as
// TestActionScript runs the action, in a pull request that edits the prompt of a module
// extractor (the seed without section 8), against recordtest.FakeModel on 127.0.0.1: the
// review is written (Markdown for the comment, HTML and JSON beside it), posted as its own
// marked comment, and fails the step exactly when the review says it fails.
func TestActionABReview(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the CLI and runs node: not in -short")
	}
	seed := filepath.Join("..", "..", "shared", "seed", "compaction.ts")
	src, err := os.ReadFile(seed)
	if err != nil {
		t.Skipf("no seed module: %v", err)
	}
	for _, tool := range []string{"bash", "git", "node"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH", tool)
		}
	}
	_, a := readAction(t)
	steps := map[string]actionStep{}
	for _, s := range a.Runs.Steps {
		steps[s.Name] = s
	}

	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "compacteval"), "./cmd/compacteval")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ghLog := filepath.Join(bin, "gh.log")
	writeExe(t, filepath.Join(bin, "gh"), "#!/bin/sh\necho \"gh $*\" >> "+ghLog+"\nexit 0\n")

	fake := &recordtest.FakeModel{}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)

	repo := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.invalid"}, args...)...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	write := func(name, text string) {
		t.Helper()
		path := filepath.Join(repo, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	session, err := os.ReadFile(filepath.Join("..", "eval", "testdata", "pi", "v2.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	git("init", "-q", "-b", "feature")
	write("src/compaction.ts", string(src))
	write("sessions/v2.jsonl", string(session))
	git("add", ".")
	git("commit", "-q", "-m", "base")
	git("update-ref", "refs/remotes/origin/main", "HEAD")
	head := string(src)
	for _, section8 := range []string{
		"8. Current Work: Describe in detail precisely what was being worked on immediately before this summary request, paying special attention to the most recent messages from both user and assistant. Include file names and code snippets where applicable.\n",
		"8. Current Work:\n   [Precise description of current work]\n\n",
	} {
		if !strings.Contains(head, section8) {
			t.Fatalf("the seed module no longer holds %q: update action_ab_test.go", section8)
		}
		head = strings.Replace(head, section8, "", 1)
	}
	write("src/compaction.ts", head)
	git("commit", "-q", "-am", "head: no section 8 (Current Work)")

	ctx := map[string]string{
		"github.event_name": "pull_request",
		"github.base_ref":   "main",
		"github.repository": "user/repo",
		"github.event.pull_request.head.repo.full_name": "user/repo",
		"github.event.pull_request.number":              "7",
		"inputs.extractor":                              "module:src/compaction.ts\n",
		"inputs.review-provider":                        "openai",
		"inputs.review-model":                           "fake",
		"inputs.review-base-url":                        srv.URL + "/v1",
		"inputs.review-sessions":                        "sessions\n",
		"inputs.github-token":                           "fake-token",
	}
	for name, in := range a.Inputs {
		if _, ok := ctx["inputs."+name]; !ok {
			ctx["inputs."+name] = in.Default
		}
	}
	runner := t.TempDir()
	summary := filepath.Join(runner, "summary")
	run := func(name string) error {
		t.Helper()
		s, ok := steps[name]
		if !ok {
			t.Fatalf("the action has no step %q", name)
		}
		if !evalIf(t, s.If, ctx, false) {
			t.Fatalf("step %q does not run in a pull request with review-provider set", name)
		}
		script := filepath.Join(runner, "step.sh")
		if err := os.WriteFile(script, []byte(s.Run), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Dir = repo
		cmd.Env = []string{
			"PATH=" + bin + ":" + os.Getenv("PATH"), "HOME=" + runner, "RUNNER_TEMP=" + runner,
			"GITHUB_STEP_SUMMARY=" + summary, "GOCACHE=" + os.Getenv("GOCACHE"),
		}
		for k, v := range s.Env {
			cmd.Env = append(cmd.Env, k+"="+expand(t, v, ctx))
		}
		out, err := cmd.CombinedOutput()
		t.Logf("step %q: %v\n%s", name, err, out)
		return err
	}

	stepErr := run("A/B review the change of a module with a model")
	md, err := os.ReadFile(filepath.Join(repo, "reports", "verdict", "review-ab.md"))
	if err != nil {
		t.Fatalf("the A/B review step wrote no review-ab.md: %v", err)
	}
	if !strings.HasPrefix(string(md), "## Prompt A/B review: ") || !strings.Contains(string(md), "#### `sessions/v2.jsonl#compaction-2`: score -") ||
		!strings.Contains(string(md), "- base: module origin/main:src/compaction.ts\n") {
		t.Errorf("review-ab.md is not the A/B review of the sessions:\n%s", md)
	}
	fails := strings.Contains(string(md), "**The review fails:**")
	if failed := stepErr != nil; failed != fails {
		t.Errorf("the step failed: %v; the review says it fails: %v, want the same", failed, fails)
	}
	for _, f := range []string{"review-ab-1.html", "review-ab-1.json"} {
		data, err := os.ReadFile(filepath.Join(repo, "reports", "verdict", f))
		if err != nil || len(data) == 0 {
			t.Errorf("the A/B review step wrote no %s: %v", f, err)
		}
	}
	if data, _ := os.ReadFile(summary); !strings.Contains(string(data), "## Prompt A/B review: ") {
		t.Errorf("the job summary holds no A/B review")
	}

	if err := run("Comment on the pull request"); err != nil {
		t.Fatalf("the comment step failed: %v", err)
	}
	calls, _ := os.ReadFile(ghLog)
	want := "gh api --paginate repos/user/repo/issues/7/comments?per_page=100 --jq .[] | select(.user.login == \"github-actions[bot]\" and (.body | startswith(\"<!-- compacteval-review-ab -->\"))) | .id\n" +
		"gh api repos/user/repo/issues/7/comments -F body=@"
	if !strings.Contains(string(calls), want) {
		t.Errorf("gh calls\n%s\nwant a search for the A/B review's comment and a new one (%q)", calls, want)
	}
}
