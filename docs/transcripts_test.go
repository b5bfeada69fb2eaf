package docs

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/compacteval/compacteval/internal/atomicfile"
)

var update = flag.Bool("update", false, "rewrite the transcripts of the pages from the scripts")

// scriptDir holds the testscripts whose expected outputs the pages' transcripts show.
const scriptDir = "../cmd/compacteval/testdata/script"

// A transcript block of a page is written from the expected outputs of one testscript, so
// that a figure that follows from the corpus (a case count, a rate, a check count) is
// never copied by hand: go test ./cmd/compacteval -run TestScripts -update rewrites the
// scripts' outputs, then go test ./docs -run TestTranscripts -update the pages. A block:
//
//	<!-- transcript of readme.txtar: go test ./docs -run TestTranscripts -update writes it
//	$ compacteval run
//	< want/run.txt
//	$ compacteval drift | head -3
//	< want/drift.txt head 3
//	= … (an elision: the = lines as they are)
//	-->
//	```
//	(written: the $ and = lines as they are, each < line the script's file, whole, its
//	first or last N lines, lines A to B, or from "A line's start" until "another's")
//	```
//	<!-- end transcript -->
//
// indented alike where the block sits in a list item.
var transcriptStart = regexp.MustCompile(`^(\s*)<!-- transcript of (\S+\.txtar): go test ./docs -run TestTranscripts -update writes it$`)

// TestTranscripts: every transcript block of the README and of the pages under docs/ is
// what its recipe writes from its script's expected outputs; with -update it rewrites the
// blocks that differ.
func TestTranscripts(t *testing.T) {
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
	blocks := 0
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		got, n, err := writeTranscripts(page, string(data))
		if err != nil {
			t.Error(err)
			continue
		}
		blocks += n
		if got == string(data) {
			continue
		}
		if *update {
			if err := atomicfile.Write(page, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("rewrote the transcripts of %s", page)
			continue
		}
		t.Errorf("%s: a transcript differs from its script's expected output; go test ./docs -run TestTranscripts -update rewrites it (-page +script):\n%s",
			page, cmp.Diff(strings.Split(string(data), "\n"), strings.Split(got, "\n")))
	}
	if blocks < 8 {
		t.Errorf("found %d transcript blocks, want the README's and the command pages' (8 or more)", blocks)
	}
}

// writeTranscripts returns page's text with every transcript block rewritten from its
// recipe, and the number of blocks.
func writeTranscripts(page, text string) (string, int, error) {
	lines := strings.Split(text, "\n")
	var out []string
	n := 0
	for i := 0; i < len(lines); i++ {
		out = append(out, lines[i])
		m := transcriptStart.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		n++
		indent, script, start := m[1], m[2], i+1
		var recipe []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "-->"; i++ {
			out = append(out, lines[i])
			recipe = append(recipe, strings.TrimPrefix(lines[i], indent))
		}
		if i == len(lines) {
			return "", 0, fmt.Errorf("%s:%d: the transcript's recipe has no closing -->", page, start)
		}
		out = append(out, lines[i])
		body, err := transcript(script, recipe)
		if err != nil {
			return "", 0, fmt.Errorf("%s:%d: %v", page, start, err)
		}
		end := i + 1
		for end < len(lines) && strings.TrimSpace(lines[end]) != "<!-- end transcript -->" {
			end++
		}
		if end == len(lines) {
			return "", 0, fmt.Errorf("%s:%d: the transcript has no <!-- end transcript -->", page, start)
		}
		fence := "```" // longer than any fence the body holds
		for slices.ContainsFunc(body, func(l string) bool { return strings.HasPrefix(l, fence) }) {
			fence += "`"
		}
		for _, l := range append(append([]string{fence}, body...), fence) {
			if l != "" {
				l = indent + l
			}
			out = append(out, l)
		}
		i = end - 1
	}
	return strings.Join(out, "\n"), n, nil
}

// transcript returns the lines a recipe writes from a script's files.
func transcript(script string, recipe []string) ([]string, error) {
	ar, err := txtar.ParseFile(filepath.Join(scriptDir, script))
	if err != nil {
		return nil, err
	}
	files := map[string]string{}
	for _, f := range ar.Files {
		files[f.Name] = string(f.Data)
	}
	var body []string
	for _, r := range recipe {
		switch {
		case strings.HasPrefix(r, "$ "):
			body = append(body, r)
		case r == "=" || strings.HasPrefix(r, "= "):
			body = append(body, strings.TrimPrefix(strings.TrimPrefix(r, "="), " "))
		case strings.HasPrefix(r, "< "):
			f := strings.Fields(r[2:])
			if len(f) > 1 && (f[1] == "from" || f[1] == "until") {
				name, rest, _ := strings.Cut(r[2:], " ")
				got, err := between(files, name, rest)
				if err != nil {
					return nil, fmt.Errorf("%s: %q: %v", script, r, err)
				}
				body = append(body, got...)
				continue
			}
			data, ok := files[f[0]]
			if !ok {
				return nil, fmt.Errorf("%s has no file %s", script, f[0])
			}
			got := strings.Split(strings.TrimSuffix(data, "\n"), "\n")
			if len(f) == 3 && f[1] == "lines" {
				a, b, ok := strings.Cut(f[2], "-")
				from, err1 := strconv.Atoi(a)
				to, err2 := strconv.Atoi(b)
				if !ok || err1 != nil || err2 != nil || from < 1 || to < from || to > len(got) {
					return nil, fmt.Errorf("%q: want lines A-B with 1 <= A <= B <= %d", r, len(got))
				}
				got = got[from-1 : to]
			} else if len(f) == 3 && (f[1] == "head" || f[1] == "tail") {
				k, err := strconv.Atoi(f[2])
				if err != nil || k < 1 || k > len(got) {
					return nil, fmt.Errorf("%q: want %s N with N from 1 to %d", r, f[1], len(got))
				}
				if f[1] == "head" {
					got = got[:k]
				} else {
					got = got[len(got)-k:]
				}
			} else if len(f) != 1 {
				return nil, fmt.Errorf("%q: want < FILE, or < FILE with head N, tail N or lines A-B", r)
			}
			body = append(body, got...)
		default:
			return nil, fmt.Errorf("%q: a recipe line is $ COMMAND, < FILE or = TEXT", r)
		}
	}
	return body, nil
}

// between returns the lines of file name that rest picks: from "A" (the first line that
// starts with A, to the end), until "B" (from the start up to the first line after them
// that starts with B, not included), or both, from "A" until "B". Anchored on text, not
// line numbers, the excerpt stays where it was when the file grows.
func between(files map[string]string, name, rest string) ([]string, error) {
	data, ok := files[name]
	if !ok {
		return nil, fmt.Errorf("no file %s", name)
	}
	lines := strings.Split(strings.TrimSuffix(data, "\n"), "\n")
	from, until := -1, -1
	var a, b string
	for rest = strings.TrimSpace(rest); rest != ""; rest = strings.TrimSpace(rest) {
		word, after, _ := strings.Cut(rest, " ")
		q, err := strconv.QuotedPrefix(strings.TrimSpace(after))
		if err != nil || word != "from" && word != "until" {
			return nil, fmt.Errorf("want from \"TEXT\" and/or until \"TEXT\"")
		}
		text, _ := strconv.Unquote(q)
		rest = strings.TrimPrefix(strings.TrimSpace(after), q)
		if word == "from" {
			a, from = text, slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, text) })
			if from < 0 {
				return nil, fmt.Errorf("no line starts with %q", text)
			}
		} else {
			b = text
		}
	}
	if from < 0 {
		from = 0
	}
	until = len(lines)
	if b != "" {
		i := slices.IndexFunc(lines[from+1:], func(l string) bool { return strings.HasPrefix(l, b) })
		if i < 0 {
			return nil, fmt.Errorf("no line after %q starts with %q", a, b)
		}
		until = from + 1 + i
	}
	return lines[from:until], nil
}
