// Command dist is make dist: it cross-builds the compacteval CLI for every release target
// with the version and commit stamped in, archives each binary with the LICENSE and the
// README, and writes SHA256SUMS over the archives.
//
//	go run ./scripts/dist [-version v0.3.0] [-out dist] [-target linux/amd64]...
//
// Without -version it builds a snapshot of HEAD, v0.0.0-C12 where C12 is the commit's first
// twelve hex digits (goreleaser's convention: a build from no tag is no release, and says
// so in its name); make dist passes the tag at HEAD, or nothing where there is none.
//
// Each build is go build -trimpath with CGO_ENABLED=0 and -ldflags "-s -w -X
// .../internal/buildinfo.version=V -X .../internal/buildinfo.commit=C", where C is git
// rev-parse HEAD (with a dist build from a modified tree refused unless -allow-dirty: a
// release names the commit it was built from). Archives are
// compacteval_V_OS_ARCH.tar.gz (.zip for Windows), holding compacteval (compacteval.exe),
// LICENSE and README.md; their bytes depend only on the binaries (fixed times and modes),
// so two dist runs of one commit give the same SHA256SUMS when the Go build is
// reproducible.
//
// Exit codes: 0 built; 2 a build or write failed, or bad flags.
package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/compacteval/compacteval/internal/atomicfile"
)

// Targets are the release's platforms, GOOS/GOARCH.
var Targets = []string{
	"darwin/amd64", "darwin/arm64",
	"linux/amd64", "linux/arm64",
	"windows/amd64", "windows/arm64",
}

const pkg = "github.com/compacteval/compacteval/internal/buildinfo"

var semver = regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

type targetList []string

func (t *targetList) String() string     { return strings.Join(*t, ",") }
func (t *targetList) Set(v string) error { *t = append(*t, v); return nil }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("dist", flag.ContinueOnError)
	fs.SetOutput(stderr)
	version := fs.String("version", "", "the release's version, vX.Y.Z (default v0.0.0-<commit>, a snapshot of HEAD)")
	out := fs.String("out", "dist", "the folder to write the archives and SHA256SUMS to")
	allowDirty := fs.Bool("allow-dirty", false, "build from a modified tree (for tests; never for a release)")
	var targets targetList
	fs.Var(&targets, "target", "a GOOS/GOARCH to build (may repeat; default every release target)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *version != "" && !semver.MatchString(*version) {
		fmt.Fprintf(stderr, "dist: -version %q is not vX.Y.Z\n", *version)
		return 2
	}
	if len(targets) == 0 {
		targets = Targets
	}
	commit, err := gitCommit(*allowDirty)
	if err != nil {
		fmt.Fprintf(stderr, "dist: %v\n", err)
		return 2
	}
	if *version == "" {
		*version = Snapshot(commit)
		fmt.Fprintf(stderr, "dist: no -version (no tag at HEAD): a snapshot, %s\n", *version)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintf(stderr, "dist: %v\n", err)
		return 2
	}
	var sums []string
	for _, t := range targets {
		name, data, err := build(t, *version, commit)
		if err != nil {
			fmt.Fprintf(stderr, "dist: %s: %v\n", t, err)
			return 2
		}
		if err := atomicfile.Write(filepath.Join(*out, name), data, 0o644); err != nil {
			fmt.Fprintf(stderr, "dist: %v\n", err)
			return 2
		}
		sums = append(sums, fmt.Sprintf("%x  %s\n", sha256.Sum256(data), name))
		fmt.Fprintf(stdout, "wrote %s\n", filepath.Join(*out, name))
	}
	sort.Strings(sums)
	if err := atomicfile.Write(filepath.Join(*out, "SHA256SUMS"), []byte(strings.Join(sums, "")), 0o644); err != nil {
		fmt.Fprintf(stderr, "dist: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "wrote %s\n", filepath.Join(*out, "SHA256SUMS"))
	return 0
}

// gitCommit returns HEAD's commit; an error for a modified tree unless allowDirty.
func gitCommit(allowDirty bool) (string, error) {
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		return "", fmt.Errorf("git rev-parse HEAD: %w", err)
	}
	status, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output()
	if err != nil {
		return "", fmt.Errorf("git status: %w", err)
	}
	if len(status) > 0 && !allowDirty {
		return "", errors.New("the tree has changes: commit them (a release names the commit it was built from)")
	}
	return strings.TrimSpace(string(head)), nil
}

// Snapshot is the version of a build from no tag: v0.0.0- and the commit's first twelve
// hex digits, which sorts below every release and names what it was built from.
func Snapshot(commit string) string {
	if len(commit) > 12 {
		commit = commit[:12]
	}
	return "v0.0.0-" + commit
}

// ArchiveName is the archive of one target: compacteval_V_OS_ARCH.tar.gz, or .zip for
// Windows.
func ArchiveName(version, target string) string {
	goos, goarch, _ := strings.Cut(target, "/")
	ext := ".tar.gz"
	if goos == "windows" {
		ext = ".zip"
	}
	return fmt.Sprintf("compacteval_%s_%s_%s%s", version, goos, goarch, ext)
}

// build cross-compiles one target and returns its archive's name and bytes.
func build(target, version, commit string) (string, []byte, error) {
	goos, goarch, ok := strings.Cut(target, "/")
	if !ok {
		return "", nil, fmt.Errorf("want GOOS/GOARCH")
	}
	tmp, err := os.MkdirTemp("", "compacteval-dist-")
	if err != nil {
		return "", nil, err
	}
	defer os.RemoveAll(tmp)
	exe := "compacteval"
	if goos == "windows" {
		exe += ".exe"
	}
	bin := filepath.Join(tmp, exe)
	cmd := exec.Command("go", "build", "-trimpath", "-o", bin,
		"-ldflags", fmt.Sprintf("-s -w -X %s.version=%s -X %s.commit=%s", pkg, version, pkg, commit),
		"./cmd/compacteval")
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return "", nil, fmt.Errorf("go build: %w", err)
	}
	files := []file{{exe, bin, 0o755}, {"LICENSE", "LICENSE", 0o644}, {"README.md", "README.md", 0o644}}
	var data []byte
	if goos == "windows" {
		data, err = zipArchive(files)
	} else {
		data, err = tarArchive(files)
	}
	return ArchiveName(version, target), data, err
}

type file struct {
	name, path string
	mode       int64
}

// stamp is every archived file's time: archives depend on their contents only.
var stamp = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func tarArchive(files []file) ([]byte, error) {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, f := range files {
		data, err := os.ReadFile(f.path)
		if err != nil {
			return nil, err
		}
		h := &tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(data)), ModTime: stamp, Typeflag: tar.TypeReg, Format: tar.FormatPAX}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func zipArchive(files []file) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		data, err := os.ReadFile(f.path)
		if err != nil {
			return nil, err
		}
		h := &zip.FileHeader{Name: f.name, Method: zip.Deflate, Modified: stamp}
		h.SetMode(os.FileMode(f.mode))
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
