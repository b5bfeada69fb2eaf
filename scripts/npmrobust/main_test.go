package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/internal/testhelp/testcmd"
)

// drifted is an answer no naive extractor reads: an upper-case analysis, a summary opener
// with an attribute and a closer misspelled by one letter.
const drifted = "<ANALYSIS>\nsecret reasoning\n</ANALYSIS>\n<summary kind=\"final\">\n1. Primary Request:\n   rename -out to -o\n</sumary>\n"

// TestNpmPackInstall packs @compacteval/robust as scripts/npmrobust builds it, installs the
// tarball with npm into an empty project with no registry (--offline, a fresh cache),
// imports it from an .mjs and checks its summary of a drifted answer against the Go
// ExtractRobust, and runs the package's own node --test tests where npm installed them.
// Where tsc is on PATH it type-checks a consumer of the installed package under --strict
// --noUncheckedIndexedAccess. It needs node and npm, and skips without them.
func TestNpmPackInstall(t *testing.T) {
	node := lookTools(t, "node", "npm")
	tmp := t.TempDir()
	pkg, packs, project := filepath.Join(tmp, "pkg"), filepath.Join(tmp, "packs"), filepath.Join(tmp, "project")
	for _, d := range []string{packs, project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir("../..")
	if err := build(pkg); err != nil {
		t.Fatal(err)
	}
	npm := []string{"--cache", filepath.Join(tmp, "npm-cache"), "--no-audit", "--no-fund", "--no-update-notifier"}
	sh(t, pkg, "npm", append([]string{"pack", "--pack-destination", packs}, npm...)...)
	tarball := filepath.Join(packs, "compacteval-robust-0.1.0.tgz")
	if err := os.WriteFile(filepath.Join(project, "package.json"), []byte(`{"name": "user-project", "private": true, "type": "module"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sh(t, project, "npm", append([]string{"install", "--offline", tarball}, npm...)...)

	input, err := json.Marshal(drifted)
	if err != nil {
		t.Fatal(err)
	}
	check := `import { extractSummary } from "@compacteval/robust";
process.stdout.write(JSON.stringify(extractSummary(` + string(input) + `) ?? null));
`
	if err := os.WriteFile(filepath.Join(project, "check.mjs"), []byte(check), 0o644); err != nil {
		t.Fatal(err)
	}
	var got *string
	if err := json.Unmarshal([]byte(sh(t, project, node, "check.mjs")), &got); err != nil {
		t.Fatal(err)
	}
	want := compact.ExtractRobust(drifted)
	if !want.OK || want.Summary == "" {
		t.Fatalf("ExtractRobust(%q) = %+v: the example must have a summary", drifted, want)
	}
	if got == nil || *got != want.Summary {
		t.Errorf("installed extractSummary(%q) = %v, Go ExtractRobust = %q", drifted, quoted(got), want.Summary)
	}

	installed := filepath.Join(project, "node_modules", "@compacteval", "robust")
	out := sh(t, installed, node, "--test", "test/")
	if m := regexp.MustCompile(`(?m)^# pass ([0-9]+)$`).FindStringSubmatch(out); m == nil || m[1] == "0" {
		t.Errorf("node --test in the installed package ran no passing test:\n%s", out)
	}

	t.Run("tsc", func(t *testing.T) {
		tsc := lookTSC(t)
		consumer := `import { extractSummary } from "@compacteval/robust";
const s: string | undefined = extractSummary("<summary>\nx\n</summary>");
const n: number = s === undefined ? 0 : s.length;
export { n };
`
		if err := os.WriteFile(filepath.Join(project, "consumer.ts"), []byte(consumer), 0o644); err != nil {
			t.Fatal(err)
		}
		sh(t, project, tsc, "--strict", "--noUncheckedIndexedAccess", "--noEmit", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "consumer.ts")
	})
}

// TestRobustTypeScriptStrict: compact/robust.ts passes tsc --strict
// --noUncheckedIndexedAccess (and --erasableSyntaxOnly from TypeScript 5.8) with no error, and npm/robust/robust.d.ts is exactly the
// declaration tsc emits for it. It skips where tsc is not on PATH.
func TestRobustTypeScriptStrict(t *testing.T) {
	tsc := lookTSC(t)
	out := t.TempDir()
	t.Chdir("../..")
	args := []string{"--strict", "--noUncheckedIndexedAccess", "--declaration", "--emitDeclarationOnly",
		"--target", "es2022", "--module", "es2022", "--outDir", out, source}
	// --erasableSyntaxOnly (TypeScript 5.8) rejects what Node's type stripping rejects, so
	// this checks robust.ts for it where Node is too old to run it.
	version := strings.TrimSpace(sh(t, ".", tsc, "--version"))
	if m := regexp.MustCompile(`^Version 5\.([0-9]+)\.`).FindStringSubmatch(version); m != nil && atoi(t, m[1]) >= 8 {
		args = append([]string{"--erasableSyntaxOnly"}, args...)
	} else {
		t.Logf("tsc %q has no --erasableSyntaxOnly (TypeScript 5.8 added it): not checked", version)
	}
	sh(t, ".", tsc, args...)
	got, err := os.ReadFile(filepath.Join(out, "robust.d.ts"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(packageDir, "robust.d.ts"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("tsc's declaration of %s differs from %s/robust.d.ts: copy it there (tsc --declaration --emitDeclarationOnly --outDir /tmp/d %s)\ntsc:\n%s\n%s/robust.d.ts:\n%s",
			source, packageDir, source, got, packageDir, want)
	}
}

// TestRobustTypeScriptStripTypes: Node's own type stripping runs compact/robust.ts (no
// const enum, no other syntax it rejects) and gives the Go robust's summary. Node before
// 22.6 has no type stripping, and the test skips there.
func TestRobustTypeScriptStripTypes(t *testing.T) {
	node := lookTools(t, "node")
	version := strings.TrimSpace(sh(t, ".", node, "--version"))
	m := regexp.MustCompile(`^v([0-9]+)\.([0-9]+)\.`).FindStringSubmatch(version)
	if m == nil {
		t.Fatalf("node --version = %q, want vMAJOR.MINOR.PATCH", version)
	}
	major, minor := atoi(t, m[1]), atoi(t, m[2])
	if major < 22 || major == 22 && minor < 6 {
		t.Skipf("node %s has no --experimental-strip-types (Node 22.6 added it): robust.ts under Node's type stripping is not tested", version)
	}
	src, err := filepath.Abs(filepath.Join("..", "..", source))
	if err != nil {
		t.Fatal(err)
	}
	input, err := json.Marshal(drifted)
	if err != nil {
		t.Fatal(err)
	}
	script := `import { extractSummary } from ` + strconv.Quote("file://"+filepath.ToSlash(src)) + `;
process.stdout.write(JSON.stringify(extractSummary(` + string(input) + `) ?? null));
`
	var got *string
	if err := json.Unmarshal([]byte(sh(t, ".", node, "--experimental-strip-types", "--input-type=module", "-e", script)), &got); err != nil {
		t.Fatal(err)
	}
	if want := compact.ExtractRobust(drifted); got == nil || *got != want.Summary {
		t.Errorf("robust.ts under strip-types: extractSummary(%q) = %v, Go ExtractRobust = %q", drifted, quoted(got), want.Summary)
	}
}

// lookTools skips the test unless every tool is on PATH, and returns the first one's path.
func lookTools(t *testing.T, tools ...string) string {
	t.Helper()
	var first string
	for i, tool := range tools {
		path, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("%s is not on PATH: the npm package @compacteval/robust is not tested", tool)
		}
		if i == 0 {
			first = path
		}
	}
	return first
}

// lookTSC skips the test unless tsc is on PATH (CI: npm install -g typescript@5).
func lookTSC(t *testing.T) string {
	t.Helper()
	tsc, err := exec.LookPath("tsc")
	if err != nil {
		t.Skip("tsc is not on PATH (npm install -g typescript@5): robust.ts is not type-checked")
	}
	return tsc
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func quoted(s *string) string {
	if s == nil {
		return "undefined"
	}
	return strconv.Quote(*s)
}

// sh runs a command in a folder and returns its stdout, failing the test on an error.
var sh = testcmd.Run
