package docs

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/internal/testhelp/testcmd"
)

// TestReleaseDryRun runs the steps of releasing.md dry on this machine's platform, with no
// network and no publish: the next release it names is the version npm/robust keeps by
// hand; scripts/dist builds that version's archive, scripts/npm and scripts/npmrobust write
// the npm packages from it; npm pack --dry-run packs each folder in the order of the page's
// npm publish lines, and every package has the release's version, the launcher's optional
// dependencies are published before it, and the extractor's package holds robust.js; the
// source folders under npm/ refuse npm pack. It needs npm for the packing, and skips that
// part without it. The memory step (scripts/memory-table.sh at 100,000 cases, most of an
// hour) it only finds among the page's commands.
func TestReleaseDryRun(t *testing.T) {
	page, err := os.ReadFile("releasing.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("The next release is `(v([0-9]+\\.[0-9]+\\.[0-9]+))`").FindSubmatch(page)
	if m == nil {
		t.Fatal("releasing.md names no next release (\"The next release is `vX.Y.Z`\")")
	}
	version, npmVersion := string(m[1]), string(m[2])
	var robust struct{ Version string }
	readJSON(t, "../npm/robust/package.json", &robust)
	if robust.Version != npmVersion {
		t.Errorf("npm/robust/package.json has version %q, releasing.md's next release is %s: set one to the other", robust.Version, version)
	}
	// The README's install section speaks of the next release and of no other.
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	install, _, _ := strings.Cut(string(readme[strings.Index(string(readme), "\n## Install\n")+1:]), "\n## Quick start")
	for _, v := range regexp.MustCompile(`\bv[0-9]+\.[0-9]+\.[0-9]+\b`).FindAllString(install, -1) {
		if v != version && v != "v0.0.0" { // v0.0.0-<commit>: a snapshot
			t.Errorf("README.md's install section names %s; releasing.md's next release is %s", v, version)
		}
	}
	if !strings.Contains(install, "Nothing is published yet") && !strings.Contains(install, version+" is out") {
		t.Errorf("README.md's install section says neither that nothing is published yet nor that %s is out", version)
	}
	publish := publishOrder(t, string(page))
	for _, want := range []string{"MEMORY_MAX_MB=500 scripts/memory-table.sh 100000", "make dist", "make npm\n", "make npm-robust", "git tag -a " + version, "gh release create " + version} {
		if !strings.Contains(string(page), "\n"+want) {
			t.Errorf("releasing.md's steps lack %q", strings.TrimSpace(want))
		}
	}
	if testing.Short() {
		t.Skip("builds the CLI: not in -short")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not on PATH: the packages are not packed")
	}

	tmp := t.TempDir()
	dist, out := filepath.Join(tmp, "dist"), filepath.Join(tmp, "dist", "npm")
	t.Chdir("..")
	target := runtime.GOOS + "/" + runtime.GOARCH
	testcmd.Run(t, ".", "go", "run", "./scripts/dist", "-version", version, "-out", dist, "-target", target, "-allow-dirty")
	testcmd.Run(t, ".", "go", "run", "./scripts/npm", "-dist", dist, "-out", out)
	testcmd.Run(t, ".", "go", "run", "./scripts/npmrobust", "-out", filepath.Join(out, "robust"))

	flags := []string{"--dry-run", "--json", "--offline", "--cache", filepath.Join(tmp, "npm-cache"), "--no-update-notifier"}
	published := map[string]bool{}
	for _, glob := range publish {
		dirs, err := filepath.Glob(filepath.Join(tmp, filepath.FromSlash(glob)))
		if err != nil || len(dirs) == 0 {
			t.Fatalf("releasing.md publishes %s, which scripts/dist and scripts/npm did not write (%v)", glob, err)
		}
		for _, dir := range dirs {
			var manifest struct {
				Name                 string
				OptionalDependencies map[string]string
			}
			readJSON(t, filepath.Join(dir, "package.json"), &manifest)
			for dep := range manifest.OptionalDependencies {
				if _, err := os.Stat(filepath.Join(out, strings.TrimPrefix(dep, "@compacteval/"))); err == nil && !published[dep] {
					t.Errorf("%s is published before %s, one of its optional dependencies", manifest.Name, dep)
				}
			}
			var packs []struct {
				Name, Version string
				Files         []struct{ Path string }
			}
			if err := json.Unmarshal([]byte(jsonOf(testcmd.Run(t, dir, npm, append([]string{"pack"}, flags...)...))), &packs); err != nil || len(packs) != 1 {
				t.Fatalf("npm pack --json in %s: %d packages, %v", dir, len(packs), err)
			}
			p := packs[0]
			if p.Name != manifest.Name || p.Version != npmVersion {
				t.Errorf("npm pack in %s = %s@%s, want %s@%s", dir, p.Name, p.Version, manifest.Name, npmVersion)
			}
			var files []string
			for _, f := range p.Files {
				files = append(files, f.Path)
			}
			if p.Name == "@compacteval/robust" && !slices.Contains(files, "robust.js") {
				t.Errorf("npm pack of @compacteval/robust holds %q, no robust.js", files)
			}
			published[p.Name] = true
		}
	}
	for _, name := range []string{"compacteval", "@compacteval/robust"} {
		if !published[name] {
			t.Errorf("releasing.md publishes no %s", name)
		}
	}

	// The source folders, copied as they are, refuse to be packed and say why.
	for _, src := range []string{"npm/robust", "npm/compacteval"} {
		dir := filepath.Join(tmp, "source", filepath.Base(src))
		if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(npm, append([]string{"pack"}, flags...)...)
		cmd.Dir = dir
		got, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(got), "this folder is the source of") {
			t.Errorf("npm pack in %s = %v, want a refusal that says the folder is a source:\n%s", src, err, got)
		}
	}
}

// publishOrder returns the folders releasing.md's npm publish lines name, in order, with
// a for loop's glob kept as a glob: "for p in dist/npm/cli-*; do npm publish ..." gives
// dist/npm/cli-*.
func publishOrder(t *testing.T, page string) []string {
	t.Helper()
	var order []string
	loop := regexp.MustCompile(`^for \w+ in (\S+); do npm publish .*; done$`)
	single := regexp.MustCompile(`^npm publish (?:--access public )?(\S+)$`)
	for _, line := range strings.Split(page, "\n") {
		if m := loop.FindStringSubmatch(line); m != nil {
			order = append(order, m[1])
		} else if m := single.FindStringSubmatch(line); m != nil {
			order = append(order, m[1])
		}
	}
	if len(order) < 3 {
		t.Fatalf("releasing.md has %d npm publish lines (%q), want the platform packages, the launcher and the extractor", len(order), order)
	}
	return order
}

// jsonOf returns npm's JSON from its stdout, after any lines a lifecycle script printed.
func jsonOf(out string) string {
	if i := strings.Index(out, "\n["); i >= 0 && !strings.HasPrefix(out, "[") {
		return out[i+1:]
	}
	return out
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
