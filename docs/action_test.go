package docs

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/internal/testhelp/testdist"
	"go.yaml.in/yaml/v3"
)

// action is the composite action users reference as compacteval/compacteval@vX.Y.Z.
const action = "../action.yml"

type actionFile struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	Name  string            `yaml:"name"`
	ID    string            `yaml:"id"`
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	Shell string            `yaml:"shell"`
	Env   map[string]string `yaml:"env"`
	Run   string            `yaml:"run"`
}

func readAction(t *testing.T) ([]byte, actionFile) {
	t.Helper()
	data, err := os.ReadFile(action)
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatalf("%s: %v", action, err)
	}
	return data, a
}

// TestActionLint lints the action's steps with actionlint as the steps of a reusable
// workflow whose inputs are the action's (actionlint reads workflows, not action
// metadata): expressions, the inputs of the actions it uses, shellcheck on its scripts.
func TestActionLint(t *testing.T) {
	data, a := readAction(t)
	if a.Runs.Using != "composite" {
		t.Fatalf("%s runs using %q, want composite", action, a.Runs.Using)
	}
	var doc struct {
		Inputs map[string]any `yaml:"inputs"`
		Runs   struct {
			Steps []any `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	inputs := map[string]any{}
	for name := range doc.Inputs {
		inputs[name] = map[string]any{"type": "string", "required": false}
	}
	wf := map[string]any{
		"on":          map[string]any{"workflow_call": map[string]any{"inputs": inputs}},
		"permissions": map[string]any{"contents": "read", "pull-requests": "write"},
		"jobs": map[string]any{"action": map[string]any{
			"runs-on": "ubuntu-latest",
			"steps":   doc.Runs.Steps,
		}},
	}
	out, err := yaml.Marshal(wf)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range lint(t, "action.yml as a workflow", out) {
		t.Errorf("action.yml (as a workflow): %s [%s]", e.Message, e.Kind)
	}
}

// TestActionsPinned: every action that a workflow, init's template or the action uses is
// pinned by a full commit SHA with its tag in a comment; every checkout keeps no
// credentials; no Node older than 22 is set up.
func TestActionsPinned(t *testing.T) {
	files, err := filepath.Glob("github-actions/*.yml")
	if err != nil {
		t.Fatal(err)
	}
	uses := regexp.MustCompile(`(?m)^\s*(?:-\s+)?uses:\s*(\S+)(.*)$`)
	pinned := regexp.MustCompile(`^[\w.-]+/[\w./-]+@[0-9a-f]{40}$`)
	for _, f := range append(files, template, action) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		for _, m := range uses.FindAllStringSubmatch(text, -1) {
			ref, rest := m[1], m[2]
			if strings.HasPrefix(ref, "compacteval/compacteval@") {
				continue // init's own action, pinned to the release that wrote the workflow
			}
			if !pinned.MatchString(ref) || !regexp.MustCompile(`#\s*v\d`).MatchString(rest) {
				t.Errorf("%s: uses %s%s: want owner/repo@<40-digit SHA> # vX.Y.Z", f, ref, rest)
			}
			if strings.HasPrefix(ref, "actions/checkout@") && !strings.Contains(text, "persist-credentials: false") {
				t.Errorf("%s: checks out without persist-credentials: false", f)
			}
		}
		for _, m := range regexp.MustCompile(`node-version:\s*'?(\d+)`).FindAllStringSubmatch(text, -1) {
			if n, _ := strconv.Atoi(m[1]); n < 22 {
				t.Errorf("%s: node-version %s is out of support; want 22 or later", f, m[1])
			}
		}
	}
}

// TestActionScript runs the action's steps as a script against a release archive built by
// make dist's program (the one make test built, internal/testhelp/testdist, when it did),
// as the runner would (bash -eo pipefail, inputs and contexts in env,
// GITHUB_PATH, GITHUB_STEP_SUMMARY), with the GitHub parts faked: curl serves the archive
// and SHA256SUMS from a folder, gh records its calls, a uses: step only sets its outputs.
// In a pull request: the gate passes, the reports are written, the comment is posted the
// first time and updated the second; a corrupted archive stops the install.
func TestActionScript(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the CLI: not in -short")
	}
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skipf("the action's test runs the linux/amd64 release; this is %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	for _, tool := range []string{"bash", "git", "tar", "sha256sum", "awk"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH", tool)
		}
	}
	_, a := readAction(t)
	// The release make test built (a copy: the test corrupts it), or one built here.
	release, version, shared := testdist.Shared(t, func(v string) string { return "compacteval_" + v + "_linux_amd64.tar.gz" })
	if !shared {
		version, release = "v0.0.0-actiontest", t.TempDir()
		dist := exec.Command("go", "run", "./scripts/dist", "-version", version, "-out", release, "-target", "linux/amd64", "-allow-dirty")
		dist.Dir = ".."
		if out, err := dist.CombinedOutput(); err != nil {
			t.Fatalf("go run ./scripts/dist: %v\n%s", err, out)
		}
	}

	fake := t.TempDir()
	writeExe(t, filepath.Join(fake, "curl"), fmt.Sprintf(`#!/bin/sh
# curl -fsSL --retry 3 -o FILE URL: serve URL from the release folder.
while [ $# -gt 1 ]; do
  case "$1" in -o) out=$2; shift ;; esac
  shift
done
case "$1" in
  https://github.com/compacteval/compacteval/releases/download/%s/*) cp "%s/${1##*/}" "$out" ;;
  *) echo "curl: unexpected URL $1" >&2; exit 22 ;;
esac
`, version, release))
	ghLog := filepath.Join(fake, "gh.log")
	writeExe(t, filepath.Join(fake, "gh"), fmt.Sprintf(`#!/bin/sh
# gh api ...: log the call; list the comments as the file comment-id says.
echo "gh $*" >> %[1]q
case "$*" in
  *--paginate*) cat %[2]q 2> /dev/null ;;
esac
exit 0
`, ghLog, filepath.Join(fake, "comment-id")))

	repo := t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	git("init", "-q")
	// The user's repository: init's baseline and gate.yaml, made by the same release.
	untar := exec.Command("tar", "-xzf", filepath.Join(release, "compacteval_"+version+"_linux_amd64.tar.gz"), "-C", fake, "compacteval")
	if out, err := untar.CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	initCmd := exec.Command(filepath.Join(fake, "compacteval"), "init", "-extractor", "robust")
	initCmd.Dir = repo
	if out, err := initCmd.CombinedOutput(); err != nil {
		t.Fatalf("compacteval init: %v\n%s", err, out)
	}
	if err := os.Remove(filepath.Join(fake, "compacteval")); err != nil { // the action installs its own
		t.Fatal(err)
	}

	ctx := map[string]string{
		"github.event_name": "pull_request",
		"github.base_ref":   "main",
		"github.repository": "user/repo",
		"github.event.pull_request.head.repo.full_name": "user/repo",
		"github.event.pull_request.number":              "7",
		"github.token":                                  "fake-token",
		"steps.upload.outputs.artifact-url":             "https://example.invalid/artifact/1",
		"inputs.extractor":                              "robust\n",
		"inputs.version":                                "",
	}
	for name, in := range a.Inputs {
		if _, ok := ctx["inputs."+name]; !ok {
			ctx["inputs."+name] = in.Default
		}
	}
	if ctx["inputs.github-token"] != "${{ github.token }}" {
		t.Fatalf("github-token defaults to %q, want the job's token", ctx["inputs.github-token"])
	}
	ctx["inputs.github-token"] = ctx["github.token"]

	run := func(actionPath string) (failed []string, summary string) {
		t.Helper()
		runner := t.TempDir()
		githubPath := filepath.Join(runner, "path")
		summaryFile := filepath.Join(runner, "summary")
		failure := false
		for _, s := range a.Runs.Steps {
			if !evalIf(t, s.If, ctx, failure) {
				continue
			}
			if s.Uses != "" {
				continue // setup-node, upload-artifact: their outputs are in ctx
			}
			if s.Shell != "bash" {
				t.Fatalf("step %q: shell %q, want bash", s.Name, s.Shell)
			}
			script := filepath.Join(runner, "step.sh")
			if err := os.WriteFile(script, []byte(s.Run), 0o644); err != nil {
				t.Fatal(err)
			}
			paths, _ := os.ReadFile(githubPath)
			path := fake
			for _, p := range strings.Fields(string(paths)) {
				path = p + ":" + path
			}
			cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
			cmd.Dir = repo
			cmd.Env = []string{
				"PATH=" + path + ":" + os.Getenv("PATH"), "HOME=" + runner,
				"RUNNER_OS=Linux", "RUNNER_ARCH=X64", "RUNNER_TEMP=" + runner,
				"GITHUB_PATH=" + githubPath, "GITHUB_STEP_SUMMARY=" + summaryFile,
				"GITHUB_ACTION_PATH=" + actionPath,
			}
			for k, v := range s.Env {
				cmd.Env = append(cmd.Env, k+"="+expand(t, v, ctx))
			}
			if out, err := cmd.CombinedOutput(); err != nil {
				failure = true
				failed = append(failed, s.Name)
				t.Logf("step %q failed: %v\n%s", s.Name, err, out)
			}
		}
		data, _ := os.ReadFile(summaryFile)
		return failed, string(data)
	}

	actionPath := filepath.Join(t.TempDir(), "_actions", "compacteval", "compacteval", version)
	failed, summary := run(actionPath)
	if len(failed) > 0 {
		t.Fatalf("the action failed at %q, want every step to pass", failed)
	}
	for _, f := range []string{"reports/latest/report.json", "reports/latest/report.html", "reports/verdict/gate.md", "reports/verdict/gate.xml"} {
		if _, err := os.Stat(filepath.Join(repo, f)); err != nil {
			t.Errorf("the action wrote no %s", f)
		}
	}
	if !strings.Contains(summary, "compacteval gate") {
		t.Errorf("the job summary holds no gate verdict:\n%.500s", summary)
	}
	calls, _ := os.ReadFile(ghLog)
	want := "gh api --paginate repos/user/repo/issues/7/comments?per_page=100 --jq .[] | select(.user.login == \"github-actions[bot]\" and (.body | startswith(\"<!-- compacteval-gate -->\"))) | .id\n" +
		"gh api repos/user/repo/issues/7/comments -F body=@"
	if !strings.HasPrefix(string(calls), want) || strings.Count(string(calls), "\n") != 2 {
		t.Errorf("first run: gh calls\n%s\nwant a search and one new comment (%q)", calls, want)
	}

	// Second run: the comment exists, so it is updated.
	if err := os.WriteFile(filepath.Join(fake, "comment-id"), []byte("42\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(ghLog); err != nil {
		t.Fatal(err)
	}
	if failed, _ := run(actionPath); len(failed) > 0 {
		t.Fatalf("second run: the action failed at %q", failed)
	}
	calls, _ = os.ReadFile(ghLog)
	if lines := strings.Split(strings.TrimSpace(string(calls)), "\n"); len(lines) != 2 || !strings.HasPrefix(lines[1], "gh api -X PATCH repos/user/repo/issues/comments/42 -F body=@") {
		t.Errorf("second run: gh calls\n%s\nwant a search and a PATCH of comment 42", calls)
	}

	// Pinned by a SHA and no version input: the install says what to do, nothing runs.
	if failed, _ := run(filepath.Join(t.TempDir(), "3d3c42e5aac5ba805825da76410c181273ba90b1")); len(failed) == 0 || failed[0] != "Install compacteval" {
		t.Errorf("an action pinned by SHA with no version: failed steps %q, want the install first", failed)
	}

	// A corrupted archive: the checksum stops the install.
	archive := filepath.Join(release, "compacteval_"+version+"_linux_amd64.tar.gz")
	f, err := os.OpenFile(archive, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("x")
	f.Close()
	if failed, _ := run(actionPath); len(failed) == 0 || failed[0] != "Install compacteval" {
		t.Errorf("a corrupted archive: failed steps %q, want the install first", failed)
	}
}

func writeExe(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
}

var expr = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// expand replaces each ${{ name }} of s by ctx[name]; an unknown name fails the test.
func expand(t *testing.T, s string, ctx map[string]string) string {
	t.Helper()
	return expr.ReplaceAllStringFunc(s, func(m string) string {
		name := expr.FindStringSubmatch(m)[1]
		v, ok := ctx[name]
		if !ok {
			t.Fatalf("the action's test knows no %q", name)
		}
		return v
	})
}

// evalIf evaluates the if: conditions the action uses: terms joined by &&, each always(),
// contains(X, 'lit'), or X == Y, X != Y with context names or quoted literals. A step with
// no if: runs unless a step failed.
func evalIf(t *testing.T, cond string, ctx map[string]string, failure bool) bool {
	t.Helper()
	if cond == "" {
		return !failure
	}
	value := func(s string) string {
		s = strings.TrimSpace(s)
		if strings.HasPrefix(s, "'") && strings.HasSuffix(s, "'") {
			return strings.Trim(s, "'")
		}
		v, ok := ctx[s]
		if !ok {
			t.Fatalf("the action's test knows no %q (in if: %s)", s, cond)
		}
		return v
	}
	always := false
	for _, term := range strings.Split(cond, "&&") {
		term = strings.TrimSpace(term)
		switch {
		case term == "always()":
			always = true
		case strings.HasPrefix(term, "contains(") && strings.HasSuffix(term, ")"):
			a, b, _ := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(term, "contains("), ")"), ",")
			if !strings.Contains(value(a), value(b)) {
				return false
			}
		case strings.Contains(term, "!="):
			a, b, _ := strings.Cut(term, "!=")
			if value(a) == value(b) {
				return false
			}
		case strings.Contains(term, "=="):
			a, b, _ := strings.Cut(term, "==")
			if value(a) != value(b) {
				return false
			}
		default:
			t.Fatalf("the action's test cannot evaluate %q (in if: %s)", term, cond)
		}
	}
	return always || !failure
}
