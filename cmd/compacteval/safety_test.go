package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
)

// TestExtractClaudeCodeBounded: 30 KB of "$&" in a summary block wrote 450 MB with claude-code@2.1.88
// (2.1.332 no longer expands "$&"); the output is
// now bounded by compact.MaxOutput and the cut is reported.
func TestExtractClaudeCodeBounded(t *testing.T) {
	in := "<summary>" + strings.Repeat("$&", 15000) + "</summary>"
	code, out, errOut := runCLI(t, in, "extract", "-extractor", "claude-code@2.1.88")
	if code != exitOK || len(out) > compact.MaxOutput+len(in)+1 || !strings.Contains(errOut, "stopped expanding") {
		t.Errorf("extract -extractor claude-code@2.1.88 of 30 KB of $& = %d, %d bytes out, stderr %q; want 0, at most %d bytes and a warning", code, len(out), errOut, compact.MaxOutput+len(in)+1)
	}
}

// TestCorpusLintBounds: a binary file gave millions of problem lines; now at most
// corpus.MaxProblemsPerFile and a count, and a file over -max-case-bytes is refused by name,
// after which the package-wide limit is the default again (corpus.txtar has the rest).
func TestCorpusLintBounds(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "fenced"), 0o755)
	bin := filepath.Join(dir, "fenced", "blob.yaml")
	data := make([]byte, 20000)
	for i := range data {
		data[i] = byte(i*7 + 1)
	}
	os.WriteFile(bin, data, 0o644)
	code, out, _ := runCLI(t, "", "corpus", "lint", dir)
	if n := strings.Count(out, "\n"); code != exitProblem || n != corpus.MaxProblemsPerFile+1 || !strings.Contains(out, "more problems not shown") {
		t.Errorf("corpus lint of 20000 binary bytes = %d, %d lines; want 1 and %d", code, n, corpus.MaxProblemsPerFile+1)
	}
	code, out, _ = runCLI(t, "", "corpus", "lint", "-max-case-bytes", "1000", dir)
	if want := bin + ": the file is 20000 bytes, over the limit of 1000"; code != exitProblem || !strings.HasPrefix(out, want) || strings.Count(out, "\n") != 1 {
		t.Errorf("corpus lint -max-case-bytes 1000 = %d, %q; want 1 and %q", code, out, want)
	}
	if corpus.MaxCaseBytes != 8<<20 {
		t.Errorf("corpus.MaxCaseBytes = %d after the command, want the default back", corpus.MaxCaseBytes)
	}
}
