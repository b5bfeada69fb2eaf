package outfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	report := write("base.json", `{"schema_version": 1, "complete": true}`)
	user := write("gate.yaml", "version: 1\n")
	empty := write("empty.md", "")
	md := write("gate.md", "## compacteval gate: passed\n\nmore")
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(report, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		path   string
		kind   Kind
		target string // "" when refused
		notOwn bool   // the refusal wraps ErrNotOwn
	}{
		{name: "a missing file", path: filepath.Join(dir, "new.json"), kind: Report, target: filepath.Join(dir, "new.json")},
		{name: "a report", path: report, kind: Report, target: report},
		{name: "a link to a report is written through", path: link, kind: Report, target: report},
		{name: "a user's YAML", path: user, kind: Report, notOwn: true},
		{name: "an empty file is no output", path: empty, kind: Markdown, notOwn: true},
		{name: "Markdown of the gate", path: md, kind: Markdown, target: md},
		{name: "Markdown is no JUnit", path: md, kind: JUnit, notOwn: true},
		{name: "a folder", path: dir, kind: Report, notOwn: true},
		{name: "in a missing folder (Write makes it)", path: filepath.Join(dir, "no", "x.xml"), kind: JUnit, target: filepath.Join(dir, "no", "x.xml")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Check(tc.path, tc.kind)
			if got != tc.target || (err == nil) != (tc.target != "") {
				t.Errorf("Check(%s) = %q, %v; want %q", tc.path, got, err, tc.target)
			}
			if errors.Is(err, ErrNotOwn) != tc.notOwn {
				t.Errorf("Check(%s) error %v: wraps ErrNotOwn %v, want %v", tc.path, err, !tc.notOwn, tc.notOwn)
			}
		})
	}
}

func TestWriteRefusesLeavesFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "gate.yaml")
	if err := os.WriteFile(p, []byte("version: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(p, []byte(`{"schema_version":1}`), Report); !errors.Is(err, ErrNotOwn) {
		t.Errorf("Write over a user's file = %v, want ErrNotOwn", err)
	}
	if data, _ := os.ReadFile(p); string(data) != "version: 1\n" {
		t.Errorf("the user's file now holds %q", data)
	}
}
