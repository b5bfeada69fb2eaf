package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// pending are pages that other branches write at the same time as this one's links to
// them; remove each once it is merged.
var pending = map[string]bool{}

// TestLinks: every relative link of the README and of the pages under docs/ names a file
// or folder that exists (anchors and URLs are not checked).
func TestLinks(t *testing.T) {
	pages := []string{"../README.md"}
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			pages = append(pages, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	docsDir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	checked := 0
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, m := range link.FindAllStringSubmatch(line, -1) {
				target, _, _ := strings.Cut(m[1], "#")
				if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				path := filepath.Join(filepath.Dir(page), target)
				if abs, _ := filepath.Abs(path); pending[filepath.Base(abs)] && filepath.Dir(abs) == docsDir {
					continue
				}
				checked++
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s:%d: a link to %s, which does not exist", page, i+1, m[1])
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("checked %d links, want the README's and the pages' (20 or more)", checked)
	}
}
