package fuzz_test

import (
	"archive/zip"
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/cflite"
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

// TestClusterFuzzLiteSeedCorpora runs build.sh with compile_native_go_fuzzer stubbed out,
// as ClusterFuzzLite runs it (in the module's folder, with $OUT set), and checks the seed
// corpora it writes: a zip for every target of internal/cflite, one file per corpus
// response for the targets seeded from responses, each file decoding, by go-fuzz-headers'
// rules, to that response (and none in Go's own "go test fuzz v1" format).
func TestClusterFuzzLiteSeedCorpora(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the seed corpus helper")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	out := t.TempDir()
	cmd := exec.Command(bash, "-c", `compile_native_go_fuzzer() { echo "$3" >> "$OUT/compiled.txt"; }
export -f compile_native_go_fuzzer
bash .clusterfuzzlite/build.sh`)
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "OUT="+out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build.sh: %v\n%s", err, msg)
	}
	compiled, err := os.ReadFile(filepath.Join(out, "compiled.txt"))
	if err != nil {
		t.Fatal(err)
	}
	binaries := strings.Fields(string(compiled))
	for _, b := range binaries {
		_, unseeded := cflite.Unseeded[b]
		if !unseeded && !slices.ContainsFunc(cflite.Targets, func(tg cflite.Target) bool { return tg.Binary == b }) {
			t.Errorf("build.sh compiles %s, which has no seed corpus: add it to internal/cflite.Targets (or Unseeded, saying why)", b)
		}
	}

	cases, err := corpus.Load("../corpus/cases")
	if err != nil {
		t.Fatal(err)
	}
	in, err := cflite.ReadInputs("..")
	if err != nil {
		t.Fatal(err)
	}
	responses := map[string]bool{}
	for _, c := range cases {
		responses[c.Response] = true
	}
	byResponse := map[string]bool{"fuzz_extract_summary": true, "fuzz_extractors": true, "fuzz_robust_untagged": true,
		"fuzz_robust_no_leak": true, "fuzz_robust_keeps_block": true, "fuzz_line_diff": true}
	seen := 0
	for _, tg := range cflite.Targets {
		if !slices.Contains(binaries, tg.Binary) {
			t.Errorf("internal/cflite has seeds for %s, which build.sh does not compile", tg.Binary)
		}
		zr, err := zip.OpenReader(filepath.Join(out, tg.Binary+"_seed_corpus.zip"))
		if err != nil {
			t.Errorf("build.sh wrote no seed corpus for %s: %v", tg.Binary, err)
			continue
		}
		like := tg.Seeds(in)[0] // the argument types
		got := map[string]bool{}
		for _, f := range zr.File {
			data := readZipped(t, f)
			if bytes.HasPrefix(data, []byte("go test fuzz v1")) {
				t.Errorf("%s/%s is in Go's corpus format, which the libFuzzer build reads as bytes", tg.Binary, f.Name)
			}
			args, err := cflite.Decode(data, like...)
			if err != nil {
				t.Errorf("%s/%s does not decode into %s's arguments: %v", tg.Binary, f.Name, tg.Func, err)
				continue
			}
			if s, ok := args[0].(string); ok {
				got[s] = true
			}
		}
		zr.Close()
		if byResponse[tg.Binary] {
			seen++
			if len(zr.File) != len(cases) {
				t.Errorf("%s: %d seed files, want one per corpus response (%d)", tg.Binary, len(zr.File), len(cases))
			}
			for r := range responses {
				if !got[r] {
					t.Errorf("%s: no seed holds the response %.40q", tg.Binary, r)
					break
				}
			}
		}
	}
	if seen != len(byResponse) {
		t.Errorf("checked %d targets seeded from responses, want %d", seen, len(byResponse))
	}
}

func readZipped(t *testing.T, f *zip.File) []byte {
	t.Helper()
	rc, err := f.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
