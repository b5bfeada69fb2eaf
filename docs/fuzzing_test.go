package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestFuzzTargetsListed: the table of fuzz targets in fuzzing.md has one row per Fuzz
// function of the module's tests, with its package, and no other; so the page never counts
// or names targets by hand that the code does not have.
func TestFuzzTargetsListed(t *testing.T) {
	fuzzFunc := regexp.MustCompile(`(?m)^func (Fuzz\w+)\(f \*testing\.F\)`)
	var code []string
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != ".." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("..", filepath.Dir(path))
		for _, m := range fuzzFunc.FindAllStringSubmatch(string(data), -1) {
			code = append(code, m[1]+" "+filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile("fuzzing.md")
	if err != nil {
		t.Fatal(err)
	}
	// The table of targets: "| FuzzX | package | what it checks |".
	var listed []string
	for _, m := range regexp.MustCompile(`(?m)^\| (Fuzz\w+) \| ([a-z/]+) \| [^|]*[a-z][^|]* \|$`).FindAllStringSubmatch(string(page), -1) {
		listed = append(listed, m[1]+" "+m[2])
	}
	slices.Sort(code)
	slices.Sort(listed)
	if len(code) < 10 {
		t.Fatalf("found %d fuzz targets in the module: %q", len(code), code)
	}
	for _, c := range code {
		if !slices.Contains(listed, c) {
			t.Errorf("fuzzing.md's table of targets has no row for %s", c)
		}
	}
	for _, l := range listed {
		if !slices.Contains(code, l) {
			t.Errorf("fuzzing.md's table of targets lists %s, which the module does not have", l)
		}
	}
}
