// Command npm is make npm: from make dist's archives it writes the npm packages of the CLI,
// shipped as esbuild and biome ship their binaries: one package per platform,
// @compacteval/cli-<platform>-<arch> with os and cpu fields and the binary, and the
// launcher compacteval (npm/compacteval) whose optional dependencies name them all, so that
// npm installs only the one that fits the machine.
//
//	go run ./scripts/npm [-dist dist] [-out dist/npm]
//
// It reads dist/SHA256SUMS, checks each archive against it, and takes the version from the
// archives' names (compacteval_vX.Y.Z_OS_ARCH.tar.gz: npm's version is X.Y.Z). Each package
// is a folder in -out, ready for npm pack or npm publish; the launcher is written last, with
// optional dependencies on exactly the platform packages written.
//
// Exit codes: 0 written; 2 a missing or corrupt archive, a write failed, or bad flags.
package main

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// nodeNames maps Go's GOOS and GOARCH to Node's process.platform and process.arch.
var nodeNames = map[string]string{
	"linux": "linux", "darwin": "darwin", "windows": "win32",
	"amd64": "x64", "arm64": "arm64",
}

var archiveName = regexp.MustCompile(`^compacteval_v([0-9]+\.[0-9]+\.[0-9]+(?:-[0-9A-Za-z.-]+)?)_([a-z]+)_([a-z0-9]+)\.(tar\.gz|zip)$`)

// launcherDir is the launcher's source: its package.json is rewritten with the version
// and the optional dependencies.
const launcherDir = "npm/compacteval"

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("npm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dist := fs.String("dist", "dist", "make dist's folder: the archives and SHA256SUMS")
	out := fs.String("out", filepath.Join("dist", "npm"), "the folder to write the packages to")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if err := write(*dist, *out, stdout); err != nil {
		fmt.Fprintf(stderr, "npm: %v\n", err)
		return 2
	}
	return 0
}

func write(dist, out string, stdout io.Writer) error {
	sums, err := readSums(filepath.Join(dist, "SHA256SUMS"))
	if err != nil {
		return err
	}
	version := ""
	deps := map[string]string{}
	for _, name := range slices.Sorted(maps.Keys(sums)) {
		m := archiveName.FindStringSubmatch(name)
		if m == nil {
			return fmt.Errorf("%s: %s is no release archive's name", filepath.Join(dist, "SHA256SUMS"), name)
		}
		if version != "" && m[1] != version {
			return fmt.Errorf("%s: archives of two versions, %s and %s", dist, version, m[1])
		}
		version = m[1]
		platform, arch := nodeNames[m[2]], nodeNames[m[3]]
		if platform == "" || arch == "" {
			return fmt.Errorf("%s: no Node name for %s/%s", name, m[2], m[3])
		}
		data, err := os.ReadFile(filepath.Join(dist, name))
		if err != nil {
			return err
		}
		if got := fmt.Sprintf("%x", sha256.Sum256(data)); got != sums[name] {
			return fmt.Errorf("%s: SHA-256 %s, SHA256SUMS says %s", filepath.Join(dist, name), got, sums[name])
		}
		exe := "compacteval"
		if m[2] == "windows" {
			exe += ".exe"
		}
		bin, err := extract(data, m[4], exe)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		pkg := "@compacteval/cli-" + platform + "-" + arch
		dir := filepath.Join(out, "cli-"+platform+"-"+arch)
		manifest := map[string]any{
			"name":            pkg,
			"version":         version,
			"description":     fmt.Sprintf("The compacteval binary for %s %s; install compacteval, which picks it", platform, arch),
			"license":         "MIT",
			"repository":      map[string]string{"type": "git", "url": "git+https://github.com/compacteval/compacteval.git"},
			"os":              []string{platform},
			"cpu":             []string{arch},
			"files":           []string{"bin/" + exe, "LICENSE"},
			"preferUnplugged": true,
		}
		if err := writePackage(dir, manifest, map[string]file{"bin/" + exe: {bin, 0o755}}); err != nil {
			return err
		}
		deps[pkg] = version
		fmt.Fprintf(stdout, "wrote %s (%s)\n", dir, pkg)
	}
	if version == "" {
		return fmt.Errorf("%s lists no archive", filepath.Join(dist, "SHA256SUMS"))
	}

	var manifest map[string]any
	src, err := os.ReadFile(filepath.Join(launcherDir, "package.json"))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(src, &manifest); err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(launcherDir, "package.json"), err)
	}
	manifest["version"] = version
	manifest["optionalDependencies"] = deps
	files := map[string]file{}
	for f, mode := range map[string]os.FileMode{"bin/compacteval.js": 0o755, "README.md": 0o644} {
		data, err := os.ReadFile(filepath.Join(launcherDir, f))
		if err != nil {
			return err
		}
		files[f] = file{data, mode}
	}
	dir := filepath.Join(out, "compacteval")
	if err := writePackage(dir, manifest, files); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (compacteval %s, %d platforms)\n", dir, version, len(deps))
	return nil
}

type file struct {
	data []byte
	mode os.FileMode
}

// writePackage writes one package folder afresh: package.json, the LICENSE and files.
func writePackage(dir string, manifest map[string]any, files map[string]file) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	license, err := os.ReadFile("LICENSE")
	if err != nil {
		return err
	}
	pj, err := json.MarshalIndent(manifest, "", "  ")
	if err != nil {
		return err
	}
	files["package.json"] = file{append(pj, '\n'), 0o644}
	files["LICENSE"] = file{license, 0o644}
	for name, f := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, f.data, f.mode); err != nil {
			return err
		}
	}
	return nil
}

// readSums reads a SHA256SUMS file: "<hex>  <name>" lines.
func readSums(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	sums := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok || len(sum) != 64 {
			return nil, fmt.Errorf("%s:%d: want \"<sha256>  <file>\"", path, n)
		}
		sums[name] = sum
	}
	return sums, nil
}

// extract returns the file name of a .tar.gz or .zip archive.
func extract(data []byte, kind, name string) ([]byte, error) {
	if kind == "zip" {
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return nil, err
		}
		for _, f := range zr.File {
			if f.Name == name {
				rc, err := f.Open()
				if err != nil {
					return nil, err
				}
				defer rc.Close()
				return io.ReadAll(rc)
			}
		}
		return nil, fmt.Errorf("no %s in the archive", name)
	}
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("no %s in the archive", name)
		}
		if err != nil {
			return nil, err
		}
		if h.Name == name {
			return io.ReadAll(tr)
		}
	}
}
