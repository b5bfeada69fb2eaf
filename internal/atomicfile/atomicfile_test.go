package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteReplacesAtomically(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "f.txt")
	for _, data := range []string{"first", "second, longer"} {
		if err := Write(path, []byte(data), 0o644); err != nil {
			t.Fatalf("Write(%q): %v", data, err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != data {
			t.Errorf("after Write(%q) the file holds %q, %v", data, got, err)
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("Write left %d files in the folder, want only f.txt: %v", len(entries), entries)
	}
}

func TestCreateNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "case.yaml")
	if err := Create(path, []byte("recorded"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := Create(path, []byte("other"), 0o644)
	if !errors.Is(err, ErrExists) {
		t.Errorf("Create over an existing file = %v, want ErrExists", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "recorded" {
		t.Errorf("Create changed an existing file: %q", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("a refused Create left files behind: %v", entries)
	}
}

func TestWriteIntoMissingParentFails(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(filepath.Join(blocker, "x.txt"), []byte("x"), 0o644); err == nil {
		t.Errorf("Write below a regular file succeeded")
	}
}
