package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestDependabotCoversManifests: .github/dependabot.yml has an update for every manifest of
// the repository (go.mod, package.json, action.yml; testdata, dist and node_modules aside)
// in its ecosystem and folder, and lists no folder that has no manifest.
func TestDependabotCoversManifests(t *testing.T) {
	data, err := os.ReadFile("../.github/dependabot.yml")
	if err != nil {
		t.Fatal(err)
	}
	var config struct {
		Version int
		Updates []struct {
			Ecosystem   string   `yaml:"package-ecosystem"`
			Directory   string   `yaml:"directory"`
			Directories []string `yaml:"directories"`
			Schedule    struct{ Interval string }
		}
	}
	if err := yaml.Unmarshal(data, &config); err != nil {
		t.Fatalf(".github/dependabot.yml: %v", err)
	}
	if config.Version != 2 {
		t.Errorf(".github/dependabot.yml: version %d, want 2", config.Version)
	}
	listed := map[string]bool{} // "ecosystem /dir"
	for _, u := range config.Updates {
		if u.Schedule.Interval == "" {
			t.Errorf(".github/dependabot.yml: %s has no schedule interval", u.Ecosystem)
		}
		for _, dir := range append(slices.Clip(u.Directories), u.Directory) {
			if dir != "" {
				listed[u.Ecosystem+" "+dir] = true
			}
		}
	}
	ecosystem := map[string]string{"go.mod": "gomod", "package.json": "npm", "action.yml": "github-actions"}
	want := map[string]bool{}
	err = filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != ".." && (d.Name()[0] == '.' && d.Name() != ".github" || slices.Contains([]string{"testdata", "dist", "node_modules"}, d.Name())) {
			return filepath.SkipDir
		}
		if e := ecosystem[d.Name()]; e != "" && !d.IsDir() {
			rel, _ := filepath.Rel("..", filepath.Dir(path))
			want[e+" "+filepath.ToSlash(filepath.Join("/", rel))] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 4 {
		t.Fatalf("found %d manifests (%v), want go.mod, action.yml and the npm packages'", len(want), want)
	}
	for m := range want {
		if !listed[m] {
			t.Errorf(".github/dependabot.yml has no update for %s", m)
		}
	}
	for m := range listed {
		if !want[m] {
			t.Errorf(".github/dependabot.yml updates %s, which has no manifest", m)
		}
	}
}
