// Command npmrobust is make npm-robust: it writes the npm package @compacteval/robust, the
// robust extractor as an ES module, from its one source, compact/robust.ts.
//
//	go run ./scripts/npmrobust [-out dist/npm/robust]
//
// The package folder -out gets npm/robust/ (package.json, README.md, robust.d.ts and the
// node --test tests), the repository's LICENSE, and robust.js: compact/robust.ts with its
// types removed by esbuild, the same transform the differential test
// (compact/robust_ts_test.go) runs under Node, so the package is what that test holds equal
// to the Go robust. The folder is ready for npm pack or npm publish. robust.d.ts is tsc's
// declaration output for robust.ts, checked by scripts/npmrobust's test where tsc is on PATH.
//
// Exit codes: 0 written; 2 a file is missing, robust.ts does not transform, a write failed,
// or bad flags.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/compacteval/compacteval/internal/atomicfile"
)

const (
	source     = "compact/robust.ts"
	packageDir = "npm/robust"
)

// packageFiles are copied from packageDir; LICENSE comes from the repository's root.
var packageFiles = []string{"package.json", "README.md", "robust.d.ts", "test/robust.test.js"}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("npmrobust", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", filepath.Join("dist", "npm", "robust"), "the package `folder` to write")
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: go run ./scripts/npmrobust [-out dist/npm/robust]

Writes the npm package @compacteval/robust from compact/robust.ts and npm/robust/, from the
repository's root. Then: cd dist/npm/robust && npm pack.
`)
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	if err := build(*out); err != nil {
		fmt.Fprintf(stderr, "npmrobust: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "wrote %s\n", *out)
	return 0
}

// build writes the package into out, from the repository root (the working directory).
func build(out string) error {
	js, err := transform(source)
	if err != nil {
		return err
	}
	files := map[string][]byte{"robust.js": js}
	for _, name := range packageFiles {
		b, err := os.ReadFile(filepath.Join(packageDir, filepath.FromSlash(name)))
		if err != nil {
			return err
		}
		files[name] = b
	}
	if files["LICENSE"], err = os.ReadFile("LICENSE"); err != nil {
		return err
	}
	for name, b := range files {
		path := filepath.Join(out, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := atomicfile.Write(path, b, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	return nil
}

// transform returns the TypeScript file path with its types removed, as an ES module.
func transform(path string) ([]byte, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	res := api.Transform(string(src), api.TransformOptions{
		Loader: api.LoaderTS, Format: api.FormatESModule, Target: api.ES2022, Sourcefile: path,
	})
	var errs []string
	for _, m := range res.Errors {
		if l := m.Location; l != nil {
			errs = append(errs, fmt.Sprintf("%s:%d:%d: %s", l.File, l.Line, l.Column+1, m.Text))
		} else {
			errs = append(errs, path+": "+m.Text)
		}
	}
	if len(errs) > 0 {
		return nil, errors.New(strings.Join(errs, "\n"))
	}
	return res.Code, nil
}
