package main

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/internal/testhelp/testcmd"
	"github.com/compacteval/compacteval/internal/testhelp/testdist"
)

// TestDistRuns builds the release archive of this machine's platform (linux/amd64 in CI;
// one target, to keep the test short), or takes the one make test built with this program
// (internal/testhelp/testdist), checks it against SHA256SUMS, unpacks it and runs
// the binary in an empty folder: version prints the stamped version and commit, and run
// on the embedded corpus writes a report.json that names them.
func TestDistRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the CLI: not in -short")
	}
	target := runtime.GOOS + "/" + runtime.GOARCH
	if !slices.Contains(Targets, target) || runtime.GOOS == "windows" {
		t.Skipf("%s: no tar.gz release archive to run here", target)
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not in a git checkout: %v", err)
	}
	commit := strings.TrimSpace(string(head))
	// The release make test built with this program, or one built here.
	out, version, shared := testdist.Shared(t, func(v string) string { return ArchiveName(v, target) })
	if !shared {
		version, out = "v0.0.0-disttest", t.TempDir()
		t.Chdir("../..")
		var stdout, stderr strings.Builder
		if code := run([]string{"-version", version, "-out", out, "-target", target, "-allow-dirty"}, &stdout, &stderr); code != 0 {
			t.Fatalf("dist = exit %d, stderr:\n%s", code, stderr.String())
		}
	}
	name := ArchiveName(version, target)
	archive, err := os.ReadFile(filepath.Join(out, name))
	if err != nil {
		t.Fatal(err)
	}
	sums, err := os.ReadFile(filepath.Join(out, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("%x  %s\n", sha256.Sum256(archive), name); string(sums) != want {
		t.Errorf("SHA256SUMS = %q, want %q", sums, want)
	}

	bin := t.TempDir()
	names := untar(t, filepath.Join(out, name), bin)
	if want := []string{"LICENSE", "README.md", "compacteval"}; !slices.Equal(names, want) {
		t.Errorf("%s holds %q, want %q", name, names, want)
	}
	empty := t.TempDir()
	exe := filepath.Join(bin, "compacteval")
	got := command(t, empty, exe, "version")
	if want := regexp.MustCompile(`^compacteval ` + regexp.QuoteMeta(version) + ` \(commit ` + commit + `, go1\.[0-9.]+\)\n$`); !want.MatchString(got) {
		t.Errorf("compacteval version = %q, want %v", got, want)
	}
	// -drift-n 1: every stage runs, at a hundredth of the default drift (not what this test
	// is about; the gate of make test and readme.txtar run the default).
	command(t, empty, exe, "run", "-drift-n", "1")
	data, err := os.ReadFile(filepath.Join(empty, "reports", "latest", "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Tool struct {
			Module   string `json:"module"`
			Revision string `json:"revision"`
		} `json:"tool"`
		Corpus struct {
			Sources []struct {
				Kind    string `json:"kind"`
				Version string `json:"version"`
			} `json:"sources"`
		} `json:"corpus"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if r.Tool.Module != version || r.Tool.Revision != commit {
		t.Errorf("report.json tool = %+v, want module %s, revision %s", r.Tool, version, commit)
	}
	if len(r.Corpus.Sources) != 1 || r.Corpus.Sources[0].Version != version {
		t.Errorf("report.json corpus sources = %+v, want the embedded corpus of %s", r.Corpus.Sources, version)
	}
}

// command runs a command in a folder and returns its stdout, failing the test on an error.
var command = testcmd.Run

// untar unpacks a .tar.gz into dir and returns the names it held, sorted.
func untar(t *testing.T, archive, dir string) []string {
	t.Helper()
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(h.Name)), data, os.FileMode(h.Mode)); err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(names)
	return names
}

// TestDistSnapshot: without -version dist names its build after HEAD, v0.0.0- and twelve
// hex digits of the commit, and says it is a snapshot; a -version that is no vX.Y.Z is
// refused. (A bogus target stops the run before anything is compiled.)
func TestDistSnapshot(t *testing.T) {
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not in a git checkout: %v", err)
	}
	want := "v0.0.0-" + string(head[:12])
	if got := Snapshot(strings.TrimSpace(string(head))); got != want {
		t.Errorf("Snapshot(HEAD) = %q, want %q", got, want)
	}
	var stdout, stderr strings.Builder
	code := run([]string{"-out", t.TempDir(), "-target", "nowhere", "-allow-dirty"}, &stdout, &stderr)
	if code != 2 || !strings.Contains(stderr.String(), "a snapshot, "+want+"\n") {
		t.Errorf("dist without -version = exit %d, stderr %q; want the snapshot %s named, then exit 2 (no such target)", code, stderr.String(), want)
	}
	stderr.Reset()
	if code := run([]string{"-version", "0.1.0"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), `-version "0.1.0" is not vX.Y.Z`) {
		t.Errorf("dist -version 0.1.0 = exit %d, stderr %q; want exit 2 and the version refused", code, stderr.String())
	}
}
