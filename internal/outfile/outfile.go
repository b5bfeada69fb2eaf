// Package outfile guards compacteval's output files: an output is written only over a
// missing file or a file of its own kind (one compacteval wrote), so that a mistyped flag
// (-baseline gate.yaml, -junit src/main.go) never replaces a user's file.
//
// A symbolic link is written through: the file it names is replaced and the link stays.
// A missing folder is made, and Write returns it so that the command says so: a mistyped
// folder is never made silently.
package outfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/compacteval/compacteval/internal/atomicfile"
)

// Kind is a kind of output, and how to tell a file of that kind.
type Kind struct {
	// Name says what the output is, for errors: "a compacteval report".
	Name string
	// Own reports whether data, a file's first Head bytes (all of it with Whole), is an
	// output of this kind.
	Own func(head []byte) bool
	// Whole gives Own the whole file.
	Whole bool
}

// Head is how many bytes of a file Own sees (a report's whole JSON is read for Report).
const Head = 4096

// The kinds of output compacteval writes.
var (
	// Report is a report.json or a baseline: a JSON object with schema_version.
	Report = Kind{Name: "a compacteval report (JSON with schema_version)", Own: isReport, Whole: true}
	// Markdown is report.md, gate.md or a review: its first line is a compacteval heading
	// (or the A/B review's).
	Markdown = Kind{Name: "compacteval Markdown (a first line \"# compacteval ...\")", Own: isMarkdown}
	// HTML is report.html or a review page: its title names compacteval (or the A/B
	// review).
	HTML = Kind{Name: "a compacteval HTML page (<title>compacteval ...)", Own: isHTML}
	// JUnit is the JUnit XML of report or gate.
	JUnit = Kind{Name: "compacteval JUnit XML (<testsuites name=\"compacteval ...\">)", Own: isJUnit}
)

func isReport(data []byte) bool {
	var head map[string]json.RawMessage
	if json.Unmarshal(data, &head) != nil {
		return false
	}
	_, ok := head["schema_version"]
	return ok
}

// abTitle opens the Markdown heading and the HTML title of the A/B review (review
// -provider, internal/abtest), which do not name compacteval.
const abTitle = "Prompt A/B review"

func isMarkdown(head []byte) bool {
	line, _, _ := bytes.Cut(head, []byte("\n"))
	return bytes.HasPrefix(line, []byte("# compacteval ")) || bytes.HasPrefix(line, []byte("## compacteval ")) ||
		bytes.HasPrefix(line, []byte("## "+abTitle))
}

func isHTML(head []byte) bool {
	return bytes.HasPrefix(bytes.ToLower(head), []byte("<!doctype html>")) &&
		(bytes.Contains(head, []byte("<title>compacteval ")) || bytes.Contains(head, []byte("<title>"+abTitle)))
}

func isJUnit(head []byte) bool {
	return bytes.HasPrefix(head, []byte("<?xml")) && bytes.Contains(head, []byte(`<testsuites name="compacteval `))
}

// ErrNotOwn is wrapped by the error of Check and Write for a file that is not an output of
// the kind to write.
var ErrNotOwn = errors.New("refusing to overwrite")

// Check returns the path an output of kind k would be written to (path, or the file a
// symbolic link names), or an error if it may not be: path is a folder or some other
// non-file, an existing file that is not of kind k, or a dangling link.
func Check(path string, k Kind) (string, error) {
	target := path
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if st, err := os.Stat(filepath.Dir(path)); err == nil && !st.IsDir() {
			return "", fmt.Errorf("write %s: %w: %s is not a folder", path, ErrNotOwn, filepath.Dir(path))
		}
		return path, nil
	case err != nil:
		return "", fmt.Errorf("write %s: %w", path, err)
	case fi.Mode()&os.ModeSymlink != 0:
		if target, err = filepath.EvalSymlinks(path); err != nil {
			return "", fmt.Errorf("write %s: a symbolic link to a missing file: %w", path, err)
		}
		if fi, err = os.Lstat(target); err != nil {
			return "", fmt.Errorf("write %s: %w", path, err)
		}
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("write %s: %w: it is not a file", path, ErrNotOwn)
	}
	head, err := readHead(target, k)
	if err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	if !k.Own(head) {
		return "", fmt.Errorf("write %s: %w: it is not %s; remove it or choose another path", path, ErrNotOwn, k.Name)
	}
	return target, nil
}

// readHead returns the start of the file Own needs: all of it for a report, whose JSON
// must parse, else its first Head bytes.
func readHead(path string, k Kind) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if k.Whole {
		return io.ReadAll(f)
	}
	buf := make([]byte, Head)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return buf[:n], nil
}

// Write writes data as an output of kind k to path, atomically, if Check allows it;
// otherwise it writes nothing and returns Check's error. made is the folder it had to make
// for path, or "".
func Write(path string, data []byte, k Kind) (made string, err error) {
	target, err := Check(path, k)
	if err != nil {
		return "", err
	}
	dir := filepath.Dir(target)
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		made = dir
	}
	return made, atomicfile.Write(target, data, 0o644)
}

// CheckFolder returns an error if dir may not take a set of outputs (run -out): dir
// exists and is not a folder, or is a folder that holds files but no report.json of
// compacteval (a source folder, say), or holds one of the set's names that is not of its
// kind. A missing dir may be made.
func CheckFolder(dir string, files map[string]Kind) error {
	fi, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("write reports in %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("write reports in %s: %w: it is not a folder", dir, ErrNotOwn)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("write reports in %s: %w", dir, err)
	}
	if len(ents) == 0 {
		return nil
	}
	if _, ok := files["report.json"]; ok {
		if _, err := os.Lstat(filepath.Join(dir, "report.json")); errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("write reports in %s: %w: it holds files and no report.json, so it is no report folder; give a new or empty folder", dir, ErrNotOwn)
		}
	}
	for name, k := range files {
		if _, err := Check(filepath.Join(dir, name), k); err != nil {
			return fmt.Errorf("write reports in %s: %w", dir, err)
		}
	}
	return nil
}
