package docs

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
	"go.yaml.in/yaml/v3"
)

// template is the workflow compacteval init fills in ({{.Version}} and the others are plain
// replacements, cmd/compacteval/init.go workflowText); github-actions/user-repo.yml is
// what it writes, which TestWorkflowsLint lints (cmd/compacteval's TestUserWorkflowDoc
// holds the two equal).
const template = "../cmd/compacteval/templates/workflow.yml"

// lint runs actionlint on one workflow, with shellcheck on its run: scripts when shellcheck
// is on PATH (actionlint checks the workflow's syntax, expressions, action inputs and
// untrusted inputs in scripts without it).
func lint(t *testing.T, name string, content []byte) []*actionlint.Error {
	t.Helper()
	opts := &actionlint.LinterOptions{Oneline: true}
	if path, err := exec.LookPath("shellcheck"); err == nil {
		opts.Shellcheck = path
	}
	var out bytes.Buffer
	l, err := actionlint.NewLinter(&out, opts)
	if err != nil {
		t.Fatal(err)
	}
	errs, err := l.Lint(name, content, nil)
	if err != nil {
		t.Fatalf("actionlint %s: %v", name, err)
	}
	return errs
}

// TestWorkflowsLint: every workflow in docs/github-actions (user-repo.yml is what init
// writes) passes actionlint.
func TestWorkflowsLint(t *testing.T) {
	files, err := filepath.Glob("github-actions/*.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"compacteval.yml", "user-repo.yml", "cflite_pr.yml", "cflite_batch.yml", "cflite_build.yml", "cflite_cron.yml"} {
		if !slices.Contains(files, filepath.Join("github-actions", want)) {
			t.Errorf("docs/github-actions has no %s", want)
		}
	}
	if _, err := exec.LookPath("shellcheck"); err != nil {
		t.Log("shellcheck is not on PATH: the run: scripts are not checked")
	}
	docs := map[string][]byte{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs[f] = data
	}
	for name, data := range docs {
		for _, e := range lint(t, name, data) {
			t.Errorf("%s:%d:%d: %s [%s]", name, e.Line, e.Column, e.Message, e.Kind)
		}
	}
}

// TestLintFinds: the linter reports what it must, so that a silent TestWorkflowsLint
// means something.
func TestLintFinds(t *testing.T) {
	for _, tc := range []struct {
		reason     string
		workflow   string
		want       string
		shellcheck bool // needs shellcheck on PATH
	}{
		{
			reason: "an untrusted input in a script",
			workflow: `on: pull_request
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - run: echo "${{ github.event.pull_request.title }}"
`,
			want: "potentially untrusted",
		},
		{
			reason: "an unknown step output",
			workflow: `on: push
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - id: x
        run: echo hi
      - if: steps.y.outputs.z == 'true'
        run: echo there
`,
			want: "property \"y\" is not defined",
		},
		{
			reason: "an unquoted variable in a script",
			workflow: `on: push
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - run: |
          x="a b"
          ls $x
`,
			want:       "SC2086",
			shellcheck: true,
		},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			if _, err := exec.LookPath("shellcheck"); tc.shellcheck && err != nil {
				t.Skip("shellcheck is not on PATH")
			}
			errs := lint(t, "bad.yml", []byte(tc.workflow))
			var msgs []string
			for _, e := range errs {
				msgs = append(msgs, e.Message)
			}
			if !strings.Contains(strings.Join(msgs, "\n"), tc.want) {
				t.Errorf("actionlint(%s) = %q, want a message with %q", tc.reason, msgs, tc.want)
			}
		})
	}
}

// TestWorkflowsCommentSafely: a step that comments on a pull request (in a workflow or in
// the action) runs only where the token may write (not on a pull request from a fork),
// never fails the job (continue-on-error, or a warning instead of a failure), and finds
// its own comment by a marker rather than with gh pr comment --edit-last.
func TestWorkflowsCommentSafely(t *testing.T) {
	files, err := filepath.Glob("github-actions/*.yml")
	if err != nil {
		t.Fatal(err)
	}
	commenters := 0
	for _, f := range append(files, action) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var wf struct {
			Jobs map[string]struct {
				Steps []commentStep `yaml:"steps"`
			} `yaml:"jobs"`
		}
		if err := yaml.Unmarshal(data, &wf); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if f == action {
			var a struct {
				Runs struct {
					Steps []commentStep `yaml:"steps"`
				} `yaml:"runs"`
			}
			if err := yaml.Unmarshal(data, &a); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			wf.Jobs = map[string]struct {
				Steps []commentStep `yaml:"steps"`
			}{"(composite)": {Steps: a.Runs.Steps}}
		}
		for job, j := range wf.Jobs {
			for _, s := range j.Steps {
				if !strings.Contains(s.Run, "gh pr comment") && !strings.Contains(s.Run, "/comments") {
					continue
				}
				commenters++
				at := f + ": " + job + ": " + s.Name
				if !strings.Contains(s.If, "github.event.pull_request.head.repo.full_name == github.repository") {
					t.Errorf("%s: comments on pull requests from forks too (if: %q)", at, s.If)
				}
				if !s.ContinueOnError && !strings.Contains(s.Run, `|| echo "::warning::`) {
					t.Errorf("%s: a failed comment fails the job (no continue-on-error)", at)
				}
				if strings.Contains(s.Run, "--edit-last") {
					t.Errorf("%s: --edit-last edits whichever workflow's comment came last", at)
				}
				if !strings.Contains(s.Run, "<!-- compacteval-") {
					t.Errorf("%s: the comment carries no marker to find it by", at)
				}
			}
		}
	}
	if commenters < 2 {
		t.Errorf("found %d commenting steps, want one in compacteval.yml and one in action.yml", commenters)
	}
}

type commentStep struct {
	Name            string `yaml:"name"`
	If              string `yaml:"if"`
	ContinueOnError bool   `yaml:"continue-on-error"`
	Run             string `yaml:"run"`
}
