package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/compacteval/compacteval/internal/testhelp/testref"
)

// TestBeside runs the Node side as timerobust -beside does, on a module that stands in for
// robust.js, and reads its answers: one line an input, with both sides' times and the size.
func TestBeside(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		testref.Missing(t, "timerobust -beside (robust.ts timed under Node)", err)
	}
	dir := t.TempDir()
	module := filepath.Join(dir, "echo.mjs")
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("echo.mjs", "export function extractSummary(text) { return text.slice(1); }\n")
	write("one.txt", "<summary>\nhé\n</summary>\n")
	write("corpus.json", `["a", "<summary>\nb\n</summary>"]`)
	t.Chdir("../../..") // the repository's root, where timerobust -beside finds the script

	out := capture(t, func() error { return time1(dir, time.Millisecond, []string{"one", "corpus"}, module, time.Millisecond) })
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	want := []struct {
		name  string
		bytes int
	}{{"one", len("<summary>\nhé\n</summary>\n")}, {"corpus", 1 + len("<summary>\nb\n</summary>")}}
	if len(lines) != len(want) {
		t.Fatalf("output %q: want %d lines", out, len(want))
	}
	for i, w := range want {
		f := strings.Fields(lines[i])
		if len(f) != 4 || f[0] != w.name || f[3] != strconv.Itoa(w.bytes) {
			t.Errorf("line %q: want %s, two times, %d bytes", lines[i], w.name, w.bytes)
			continue
		}
		for _, ns := range f[1:3] {
			if n, err := strconv.ParseInt(ns, 10, 64); err != nil || n <= 0 {
				t.Errorf("line %q: time %q is not a positive number of nanoseconds", lines[i], ns)
			}
		}
	}
}

// TestBesideNodeFails: a module Node cannot load ends the run with an error, not a hang.
func TestBesideNodeFails(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		testref.Missing(t, "timerobust -beside (robust.ts timed under Node)", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "one.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir("../../..")
	var err error
	capture(t, func() error {
		err = time1(dir, time.Millisecond, []string{"one"}, filepath.Join(dir, "missing.mjs"), time.Millisecond)
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "no time for one") {
		t.Fatalf("err = %v, want node's end reported", err)
	}
}

// capture returns what f prints on the standard output.
func capture(t *testing.T, f func() error) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	done := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(r)
		done <- b
	}()
	ferr := f()
	os.Stdout = stdout
	w.Close()
	out := <-done
	if ferr != nil {
		t.Fatal(ferr)
	}
	return string(out)
}
