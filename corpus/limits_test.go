package corpus_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/corpus"
)

// validCase is a well-formed case file with the given id (its first category is the id's
// folder).
func validCase(id string) string {
	folder, _, _ := strings.Cut(id, "/")
	return fmt.Sprintf("version: 1\nid: %s\ntitle: An example\ncategories: [%s]\nnotes: A trap.\norigin:\n  kind: synthetic\n"+
		"response: |-\n  <summary>\n  body\n  </summary>\nintended:\n  found: true\n  summary: body\n", id, folder)
}

func problemsOf(t *testing.T, err error) []string {
	t.Helper()
	var ps corpus.Problems
	if err != nil && !errors.As(err, &ps) {
		t.Fatalf("error %v is not Problems", err)
	}
	var out []string
	for _, p := range ps {
		out = append(out, p.String())
	}
	return out
}

// TestParseCapsProblems: a binary file gave one problem per byte (28,917,167 lines for
// 50 MB); Parse reports MaxProblemsPerFile and says how many more.
func TestParseCapsProblems(t *testing.T) {
	data := make([]byte, 5000)
	for i := range data {
		data[i] = byte(i%31 + 1) // control characters, none of them \n or \t alone
	}
	_, err := corpus.Parse("bin.yaml", data, "")
	got := problemsOf(t, err)
	if len(got) != corpus.MaxProblemsPerFile+1 {
		t.Fatalf("Parse(5000 control bytes) = %d problems, want %d and a count of the rest", len(got), corpus.MaxProblemsPerFile+1)
	}
	if last := got[len(got)-1]; !strings.HasPrefix(last, "bin.yaml: ") || !strings.Contains(last, "more problems not shown (the first 100 are)") {
		t.Errorf("last problem = %q, want how many more", last)
	}
}

// TestReadFileSizeLimit: a case file over MaxCaseBytes is a problem naming it, not read.
func TestReadFileSizeLimit(t *testing.T) {
	defer func(old int64) { corpus.MaxCaseBytes = old }(corpus.MaxCaseBytes)
	corpus.MaxCaseBytes = 1000
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	data := validCase("fenced/big") + "# " + strings.Repeat("x", 2000) + "\n"
	if err := os.WriteFile(big, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := corpus.ReadFile(big, "")
	want := []string{fmt.Sprintf("%s: the file is %d bytes, over the limit of 1000 for a case file (-max-case-bytes raises it)", big, len(data))}
	if got := problemsOf(t, err); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("ReadFile(%d bytes) problems = %q, want %q", len(data), got, want)
	}
	corpus.MaxCaseBytes = 3000
	if _, err := corpus.ReadFile(big, ""); err != nil {
		t.Errorf("ReadFile under a raised limit = %v", err)
	}
}

// TestLoadReportsWhatItSkips: a category folder that is a symbolic link and a .yml file
// were skipped without a word; each is now a problem naming it. A linked case file and a
// corpus folder given as a link are followed.
func TestLoadReportsWhatItSkips(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "elsewhere")
	root := filepath.Join(dir, "cases")
	for _, d := range []string{filepath.Join(root, "fenced"), filepath.Join(other, "order")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path, data string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "fenced", "a.yaml"), validCase("fenced/a"))
	write(filepath.Join(root, "fenced", "b.yml"), validCase("fenced/b"))
	write(filepath.Join(other, "order", "c.yaml"), validCase("order/c"))
	write(filepath.Join(other, "d.yaml"), validCase("fenced/d"))
	if err := os.Symlink(filepath.Join(other, "order"), filepath.Join(root, "order")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(other, "d.yaml"), filepath.Join(root, "fenced", "d.yaml")); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	for _, from := range []string{root, link} {
		cases, err := corpus.Load(from)
		want := []string{
			filepath.Join(from, "fenced", "b.yml") + ": case files end in .yaml: rename this one, which is not loaded",
			filepath.Join(from, "order") + ": a symbolic link to a folder: its cases are not loaded; link the case files one by one, or copy the folder",
		}
		if got := problemsOf(t, err); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("Load(%s) problems:\n%s\nwant:\n%s", from, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		var ids []string
		for _, c := range cases {
			ids = append(ids, c.ID)
		}
		if strings.Join(ids, " ") != "fenced/a fenced/d" {
			t.Errorf("Load(%s) ids = %v, want fenced/a and the linked fenced/d", from, ids)
		}
	}
}
