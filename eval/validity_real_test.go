package eval

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// ValidityDirEnv names the folder of real sessions the real-data validity check reads;
// scripts/validity-set.sh builds it from eval/validity/sources.tsv.
const ValidityDirEnv = "COMPACTEVAL_VALIDITY_DIR"

// readSessions reads every pi session and Claude Code transcript (.jsonl) under dir.
func readSessions(t *testing.T, dir string) []Input {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(path) == ".jsonl" {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatalf("read %s: %v", dir, err)
	}
	sort.Strings(files)
	var ins []Input
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		format, ok := DetectFormat(data)
		if !ok {
			t.Logf("%s: neither a pi session nor a Claude Code transcript; skipped", f)
			continue
		}
		read := ReadPiSession
		if format == FormatClaudeCode {
			read = ReadClaudeCode
		}
		got, st, err := read(bytes.NewReader(data), filepath.Base(f))
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		t.Logf("%s", st)
		ins = append(ins, got...)
	}
	return ins
}

func TestValidityReal(t *testing.T) {
	dir := os.Getenv(ValidityDirEnv)
	if dir == "" {
		t.Skipf("%s is not set: the real-data validity check needs the set scripts/validity-set.sh builds (it fetches public sessions; tests never touch the network)", ValidityDirEnv)
	}
	ins := readSessions(t, dir)
	if len(ins) < 2 {
		t.Fatalf("%s holds %d compactions, want at least 2", dir, len(ins))
	}
	checkValidity(t, ins)
}
