package fuzz_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/compacteval/compacteval"

var (
	fuzzFunc = regexp.MustCompile(`(?m)^func (Fuzz\w+)\(\w+ \*testing\.F\)`)
	compile  = regexp.MustCompile(`^compile_native_go_fuzzer (\S+) (Fuzz\w+) (\S+)$`)
)

// TestClusterFuzzLiteBuildsEveryTarget reads every _test.go file of the module and requires
// .clusterfuzzlite/build.sh to compile each FuzzXxx target, under a unique binary name, and
// to name no target that does not exist.
func TestClusterFuzzLiteBuildsEveryTarget(t *testing.T) {
	root := ".."
	want := map[string]bool{} // "pkg Target"
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := module
		if rel != "." {
			pkg += "/" + filepath.ToSlash(rel)
		}
		for _, m := range fuzzFunc.FindAllStringSubmatch(string(src), -1) {
			want[pkg+" "+m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 5 {
		t.Fatalf("found only %d fuzz targets in the module: the walk is broken", len(want))
	}

	f, err := os.Open(filepath.Join(root, ".clusterfuzzlite", "build.sh"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := map[string]bool{}
	binaries := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := compile.FindStringSubmatch(strings.TrimSpace(sc.Text()))
		if m == nil {
			continue
		}
		key := m[1] + " " + m[2]
		got[key] = true
		if prev, dup := binaries[m[3]]; dup {
			t.Errorf("build.sh names binary %s twice (%s and %s)", m[3], prev, key)
		}
		binaries[m[3]] = key
		if !want[key] {
			t.Errorf("build.sh compiles %s, which is not a fuzz target in the module", key)
		}
	}
	var missing []string
	for key := range want {
		if !got[key] {
			missing = append(missing, key)
		}
	}
	sort.Strings(missing)
	for _, key := range missing {
		pkg, target, _ := strings.Cut(key, " ")
		t.Errorf("build.sh does not compile %s; add:\ncompile_native_go_fuzzer %s %s %s", key, pkg, target, snake(target))
	}
}

// snake turns FuzzParseCase into fuzz_parse_case.
func snake(name string) string {
	var b strings.Builder
	for i, r := range name {
		if 'A' <= r && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}
