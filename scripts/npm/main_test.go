package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/internal/testhelp/testcmd"
	"github.com/compacteval/compacteval/internal/testhelp/testdist"
)

// TestNpmInstall packs the launcher and this platform's package from a dist archive built
// by scripts/dist (one target; the one make test built, internal/testhelp/testdist, when
// it did), installs both tarballs with npm into an empty project with
// no registry (--offline, a fresh cache), and runs npx compacteval there: version, and run
// with a TypeScript module extractor, as a Node project without Go would. It needs node and
// npm, and skips without them.
func TestNpmInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the CLI: not in -short")
	}
	for _, tool := range []string{"node", "npm", "npx"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH: the npm packages are not tested", tool)
		}
	}
	goos, goarch := runtime.GOOS, runtime.GOARCH
	if nodeNames[goos] == "" || nodeNames[goarch] == "" {
		t.Skipf("%s/%s has no npm package", goos, goarch)
	}
	tmp := t.TempDir()
	out, packs, project := filepath.Join(tmp, "npm"), filepath.Join(tmp, "packs"), filepath.Join(tmp, "project")
	for _, d := range []string{packs, project, filepath.Join(project, "src")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir("../..")
	// The release make test built, or one built here.
	dist, version, shared := testdist.Shared(t, func(v string) string {
		ext := ".tar.gz"
		if goos == "windows" {
			ext = ".zip"
		}
		return fmt.Sprintf("compacteval_%s_%s_%s%s", v, goos, goarch, ext)
	})
	if !shared {
		version, dist = "v0.0.0-npmtest", filepath.Join(tmp, "dist")
		sh(t, ".", "go", "run", "./scripts/dist", "-version", version, "-out", dist, "-target", goos+"/"+goarch, "-allow-dirty")
	}
	var stdout, stderr strings.Builder
	if code := run([]string{"-dist", dist, "-out", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("npm = exit %d:\n%s", code, stderr.String())
	}

	npm := []string{"--cache", filepath.Join(tmp, "npm-cache"), "--no-audit", "--no-fund", "--no-update-notifier"}
	platform := "cli-" + nodeNames[goos] + "-" + nodeNames[goarch]
	sh(t, filepath.Join(out, "compacteval"), "npm", append([]string{"pack", "--pack-destination", packs}, npm...)...)
	sh(t, filepath.Join(out, platform), "npm", append([]string{"pack", "--pack-destination", packs}, npm...)...)
	semver := strings.TrimPrefix(version, "v")
	launcher := filepath.Join(packs, "compacteval-"+semver+".tgz")
	binary := filepath.Join(packs, "compacteval-"+platform+"-"+semver+".tgz")

	if err := os.WriteFile(filepath.Join(project, "package.json"), []byte(`{"name": "user-project", "private": true}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sh(t, project, "npm", append([]string{"install", "--offline", "--save-dev", binary, launcher}, npm...)...)

	got := sh(t, project, "npx", "--offline", "--no-install", "compacteval", "version")
	if want := regexp.MustCompile(`^compacteval ` + regexp.QuoteMeta(version) + ` \(commit [0-9a-f]{40}, go1\.[0-9.]+\)\n$`); !want.MatchString(got) {
		t.Errorf("npx compacteval version = %q, want %v", got, want)
	}
	module := `export function extractSummary(text: string): string | undefined {
	const i = text.indexOf("<summary>");
	const j = text.lastIndexOf("</summary>");
	return i >= 0 && j > i ? text.slice(i + "<summary>".length, j).trim() : undefined;
}
`
	if err := os.WriteFile(filepath.Join(project, "src", "compaction.ts"), []byte(module), 0o644); err != nil {
		t.Fatal(err)
	}
	// A naive extractor finds problems on the corpus (exit 1): the run worked.
	// -drift-n 1: the run goes through every stage (the module answers drifted samples too)
	// at a hundredth of the default drift, which is not what this test is about.
	cmd := exec.Command("npx", "--offline", "--no-install", "compacteval", "run", "-extractor", "module:src/compaction.ts", "-drift-n", "1")
	cmd.Dir = project
	outb, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 0 && code != 1 {
		t.Fatalf("npx compacteval run: %v\n%s", err, outb)
	}
	if _, err := os.Stat(filepath.Join(project, "reports", "latest", "report.json")); err != nil {
		t.Errorf("npx compacteval run wrote no report.json: %v\n%s", err, outb)
	}
	if !strings.Contains(string(outb), "module:src/compaction.ts") {
		t.Errorf("npx compacteval run does not name the module extractor:\n%s", outb)
	}
}

// sh runs a command in a folder and returns its stdout, failing the test on an error.
var sh = testcmd.Run

// TestReadSums: a SHA256SUMS line that is not "<sha256>  <file>" is an error naming its
// line.
func TestReadSums(t *testing.T) {
	path := filepath.Join(t.TempDir(), "SHA256SUMS")
	sum := strings.Repeat("ab", 32)
	if err := os.WriteFile(path, []byte(sum+"  a.tar.gz\n"+sum+" b.zip\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := readSums(path)
	if want := path + ":2: want \"<sha256>  <file>\""; err == nil || err.Error() != want {
		t.Errorf("readSums() = %v, want %s", err, want)
	}
}
