package docs

import (
	"os/exec"
	"strings"
	"testing"
)

// TestPackageDocs: every package of the module has a package doc, one that starts
// "Package NAME" (or "Command NAME" for a main), as go doc and pkg.go.dev show it.
func TestPackageDocs(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}\t{{.Name}}\t{{.Doc}}", "./...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./...: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 20 {
		t.Fatalf("go list ./... listed %d packages", len(lines))
	}
	for _, line := range lines {
		path, rest, _ := strings.Cut(line, "\t")
		name, doc, _ := strings.Cut(rest, "\t")
		want := "Package " + name + " "
		if name == "main" {
			want = "Command "
		}
		if !strings.HasPrefix(doc, want) {
			t.Errorf("%s: package doc %q, want one that starts %q", path, doc, want)
		}
	}
}
