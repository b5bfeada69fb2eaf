package review

import (
	"bytes"
	"context"
	"encoding/json"
	"html/template"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/internal/extractor"
)

// tempRepo makes a git repository in a temporary folder with four commits, tagged c0
// (no eval/), c1 (eval/ added), c2 (a file of eval/ changed) and c3 (only a file outside
// eval/ changed).
func tempRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP eval/ comparison of git revisions: git is not on PATH")
	}
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=test", "-c", "user.email=test@example.com"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	write := func(name, text string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	commit := func(tag string) {
		t.Helper()
		run("add", "-A")
		run("commit", "-q", "-m", tag)
		run("tag", tag)
	}
	run("init", "-q")
	write("README.md", "a repository\n")
	commit("c0")
	write("eval/score.go", "package eval\n\nconst weight = 1\n")
	commit("c1")
	write("eval/score.go", "package eval\n\nconst weight = 2\n")
	commit("c2")
	write("README.md", "a repository, changed\n")
	commit("c3")
	return dir
}

// revVersion is an instruction text standing for a version built at rev of the repository
// in dir: what Open makes of -base REV, without the build.
func revVersion(t *testing.T, label, dir, rev string) *Version {
	t.Helper()
	rv, _, err := resolve(dir, rev)
	if err != nil {
		t.Fatalf("resolve %s: %v", rev, err)
	}
	path := filepath.Join(t.TempDir(), "instruction.txt")
	if err := os.WriteFile(path, []byte("Summarize the conversation.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	im, err := extractor.OpenText(path)
	if err != nil {
		t.Fatal(err)
	}
	return &Version{Label: label, Impl: im, rev: &rv}
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := git(dir, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestEvalCodeDiffers: a review of two revisions whose eval/ trees differ says, in the
// Markdown, the HTML and the JSON, that both sides were scored with one eval code; one
// whose eval/ is the same says nothing of it. A review of -base REV -head REV once read
// "No eval score changed" after a change to the scorer itself.
func TestEvalCodeDiffers(t *testing.T) {
	dir := tempRepo(t)
	tree := func(rev string) string { return gitOut(t, dir, "rev-parse", rev+":eval") }
	const said = "eval/ differs between base and head"
	for _, tc := range []struct {
		name, base, head string
		wantDiffers      bool
		wantBase         string // eval/'s tree at base
		wantHead         string
	}{
		{name: "a file of eval/ changed", base: "c1", head: "c2", wantDiffers: true, wantBase: tree("c1"), wantHead: tree("c2")},
		{name: "head changed eval/ back", base: "c2", head: "c1", wantDiffers: true, wantBase: tree("c2"), wantHead: tree("c1")},
		{name: "base has no eval/", base: "c0", head: "c1", wantDiffers: true, wantBase: "", wantHead: tree("c1")},
		{name: "only a file outside eval/ changed", base: "c2", head: "c3", wantBase: tree("c2"), wantHead: tree("c3")},
		{name: "the same commit", base: "c3", head: "HEAD", wantBase: tree("c3"), wantHead: tree("c3")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, h := revVersion(t, "base", dir, tc.base), revVersion(t, "head", dir, tc.head)
			r, err := Compare(context.Background(), b, h, Options{})
			if err != nil {
				t.Fatal(err)
			}
			e := r.EvalCode
			if e == nil {
				t.Fatalf("Compare(%s, %s).EvalCode = nil, want the eval/ trees of both", tc.base, tc.head)
			}
			if e.Differs != tc.wantDiffers || e.BaseTree != tc.wantBase || e.HeadTree != tc.wantHead {
				t.Errorf("EvalCode = %+v, want differs %v, base tree %q, head tree %q", e, tc.wantDiffers, tc.wantBase, tc.wantHead)
			}
			if tc.wantDiffers != strings.Contains(e.Note, said) {
				t.Errorf("EvalCode.Note = %q, want it to say %q: %v", e.Note, said, tc.wantDiffers)
			}

			// Every rendering, of a review with an eval section.
			q := quietReview()
			q.EvalCode = e
			md := markdown(t, q)
			page, err := HTML(q)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := json.Marshal(q)
			if err != nil {
				t.Fatal(err)
			}
			var back struct {
				EvalCode *EvalCode `json:"eval_code"`
			}
			if err := json.Unmarshal(doc, &back); err != nil {
				t.Fatal(err)
			}
			want := 0
			if tc.wantDiffers {
				want = 1
			}
			if n := strings.Count(md, "**Note:** "+said); n != want {
				t.Errorf("the Markdown has the note %d times, want %d:\n%s", n, want, md)
			}
			if n := strings.Count(md, "No eval score changed on the 30 eval cases. "+sameScorer); n != want {
				t.Errorf("the Markdown's eval section says both sides had one scorer %d times, want %d:\n%s", n, want, md)
			}
			if n := bytes.Count(page, []byte("<strong>Note:</strong> "+said)); n != want {
				t.Errorf("the HTML has the note %d times, want %d", n, want)
			}
			if n := bytes.Count(page, []byte(template.HTMLEscapeString(sameScorer))); n != want {
				t.Errorf("the HTML's eval section says both sides had one scorer %d times, want %d", n, want)
			}
			if back.EvalCode == nil || back.EvalCode.Differs != tc.wantDiffers || strings.Contains(back.EvalCode.Note, said) != tc.wantDiffers {
				t.Errorf("the JSON's eval_code = %+v, want differs %v with the note", back.EvalCode, tc.wantDiffers)
			}
		})
	}
}

// TestEvalCodeNotRevisions: a side that is not a git revision has no eval/ to compare.
func TestEvalCodeNotRevisions(t *testing.T) {
	dir := tempRepo(t)
	b := revVersion(t, "base", dir, "c1")
	h := revVersion(t, "head", dir, "c2")
	h.rev = nil // an instruction text, a module or a command
	r, err := Compare(context.Background(), b, h, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.EvalCode != nil {
		t.Errorf("Compare(revision, text).EvalCode = %+v, want nil", r.EvalCode)
	}
	doc, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(doc, []byte(`"eval_code":null`)) {
		t.Errorf("the JSON has no \"eval_code\":null:\n%s", doc)
	}
	if md := markdown(t, r); strings.Contains(md, "eval/ differs") {
		t.Errorf("the Markdown speaks of eval/:\n%s", md)
	}
}
