package corpus

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/compacteval/compacteval/internal/par"
	"go.yaml.in/yaml/v3"
)

// Problem is one thing wrong with a case file, at a position in it (Line and Col are 1-based;
// 0 means the whole file).
type Problem struct {
	File string
	Line int
	Col  int
	Msg  string
}

func (p Problem) String() string {
	switch {
	case p.Line == 0:
		return fmt.Sprintf("%s: %s", p.File, p.Msg)
	case p.Col == 0:
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", p.File, p.Line, p.Col, p.Msg)
}

// Problems is the error Load and Parse return: every problem found, in file order.
type Problems []Problem

func (ps Problems) Error() string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// Load reads every *.yaml file below dir as a case whose id is its path below dir without the
// extension; when dir is itself a category folder (corpus/cases/fenced), ids are taken from
// its parent, so one folder can be checked alone. dir may also be one case file. It returns the cases that loaded, sorted by id, and a Problems error listing
// everything wrong, including ids used twice. Nothing is skipped unseen: a .yml file and a
// symbolic link to a folder below dir are problems (neither is loaded), while a linked case
// file is read and a dir that is itself a link is followed.
func Load(dir string) ([]*Case, error) {
	return cases(loadDir(dir, holdAll))
}

// loadDir is Load, holding the cases h takes; of the others it keeps each case's Entry and
// how to read it again.
func loadDir(dir string, h *holder) ([]loaded, error) {
	var files []string
	var walkProblems Problems
	walkRoot := dir
	if isLinkToDir(dir) {
		walkRoot = dir + string(filepath.Separator) // a trailing separator makes WalkDir follow it
	}
	err := filepath.WalkDir(walkRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0 && isLinkToDir(path):
			// Not followed (a link can loop, and ids come from paths); never skipped unseen.
			walkProblems = append(walkProblems, Problem{File: path, Msg: "a symbolic link to a folder: its cases are not loaded; link the case files one by one, or copy the folder"})
		case !d.IsDir() && strings.HasSuffix(path, ".yaml"):
			files = append(files, path)
		case !d.IsDir() && strings.HasSuffix(path, ".yml"):
			walkProblems = append(walkProblems, Problem{File: path, Msg: "case files end in .yaml: rename this one, which is not loaded"})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read corpus: %w", err)
	}
	root := filepath.Clean(dir)
	single := len(files) == 1 && files[0] == dir // dir is one case file
	if single {
		root = filepath.Dir(root)
	}
	if contains(Categories, filepath.Base(root)) {
		root = filepath.Dir(root)
	} else if single {
		root = "" // a file outside a category folder: its id is not checked
	}
	refs := make([]fileRef, len(files))
	for i, f := range files {
		id := ""
		if root != "" {
			rel, _ := filepath.Rel(root, f)
			id = strings.TrimSuffix(filepath.ToSlash(rel), ".yaml")
		}
		refs[i] = fileRef{name: f, id: id, read: func() ([]byte, error) { return readCaseFile(f) }}
	}
	return loadFiles(refs, walkProblems, h)
}

// LoadFS reads every *.yaml file of fsys as a case whose id is its path without the
// extension, as Load does for a folder of category folders. Problems name files as
// label/path.
func LoadFS(fsys fs.FS, label string) ([]*Case, error) {
	return cases(loadFS(fsys, label, holdAll))
}

// loadFS is LoadFS; h is loadDir's.
func loadFS(fsys fs.FS, label string, h *holder) ([]loaded, error) {
	var refs []fileRef
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".yaml") {
			name := path.Join(label, p)
			refs = append(refs, fileRef{name: name, id: strings.TrimSuffix(p, ".yaml"), read: func() ([]byte, error) {
				data, err := fs.ReadFile(fsys, p)
				if err != nil {
					return nil, fmt.Errorf("read case %s: %w", name, err)
				}
				return data, nil
			}})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read corpus %s: %w", label, err)
	}
	return loadFiles(refs, nil, h)
}

// fileRef is one case file: its name in problems, the id it must have ("" for any) and
// how to read it.
type fileRef struct {
	name string
	id   string
	read func() ([]byte, error)
}

// parse reads and parses the file.
func (r fileRef) parse() (*Case, error) {
	data, err := r.read()
	if err != nil {
		return nil, err
	}
	return Parse(r.name, data, r.id)
}

// loaded is a case file that loaded: the case (nil when it is not kept), its entry, and
// how to read it again: its file, and where it is in the corpus's spool.
type loaded struct {
	c     *Case
	entry Entry
	ref   fileRef
	at    spooled
}

// holder decides which cases a corpus holds: all of them (Open), none (OpenLazy), or
// while they fit in a budget of their texts' bytes (OpenHolding, which drops them all when
// one did not fit). Those it does not hold go to its spool, if it has one.
type holder struct {
	all     bool
	none    bool
	left    atomic.Int64
	refused atomic.Bool
	spool   *spool
}

// holdAll holds every case.
var holdAll = &holder{all: true}

// take reports whether to hold a case with n bytes of texts, and counts them if so.
func (h *holder) take(n int) bool {
	if h == nil || h.none {
		return false
	}
	if h.all {
		return true
	}
	for {
		left := h.left.Load()
		if int64(n) > left {
			h.refused.Store(true)
			return false
		}
		if h.left.CompareAndSwap(left, left-int64(n)) {
			return true
		}
	}
}

// cases returns the cases of ls, and err.
func cases(ls []loaded, err error) ([]*Case, error) {
	if ls == nil {
		return nil, err
	}
	out := make([]*Case, len(ls))
	for i, l := range ls {
		out[i] = l.c
	}
	return out, err
}

// loadFiles parses files in parallel (YAML decoding dominates) and merges the results in
// file order after the problems found walking the folder. It holds the cases h takes, and
// only the entries of the others.
func loadFiles(files []fileRef, walkProblems Problems, h *holder) ([]loaded, error) {
	type result struct {
		l   loaded
		ok  bool
		err error
	}
	results := make([]result, len(files))
	par.Do(len(files), func(i int) {
		c, err := files[i].parse()
		results[i] = result{err: err}
		if c != nil {
			results[i].l, results[i].ok = loaded{entry: entryOf(c), ref: files[i]}, true
			if h.take(results[i].l.entry.Bytes) {
				results[i].l.c = c
			} else if h != nil {
				results[i].l.at = h.spool.put(c)
			}
		}
	})
	var out []loaded
	problems := walkProblems
	seen := map[string]string{}
	for i, f := range files {
		file := f.name
		res := results[i]
		var ps Problems
		if errors.As(res.err, &ps) {
			problems = append(problems, ps...)
		} else if res.err != nil {
			return nil, res.err
		}
		if !res.ok {
			continue
		}
		id := res.l.entry.ID
		if prev, dup := seen[id]; dup {
			problems = append(problems, Problem{File: file, Line: 1, Msg: fmt.Sprintf("duplicate id %q (also in %s)", id, prev)})
			continue
		}
		seen[id] = file
		out = append(out, res.l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].entry.ID < out[j].entry.ID })
	if len(problems) > 0 {
		return out, problems
	}
	return out, nil
}

// isLinkToDir reports whether path is a symbolic link to a folder.
func isLinkToDir(path string) bool {
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return false
	}
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// MaxCaseBytes is the largest case file ReadFile (and so Load) reads, 8 MiB by default; a
// larger one is a problem naming the file, and is not read. The largest bundled case is
// 127 KB. compacteval's corpus commands set it from -max-case-bytes.
var MaxCaseBytes int64 = 8 << 20

// MaxProblemsPerFile is how many problems Parse reports for one file (a binary file would
// otherwise give one per byte); a last problem says how many more there are.
const MaxProblemsPerFile = 100

// ReadFile reads one case file and checks that its id is wantID (no check when wantID is "").
// A file over MaxCaseBytes is a Problems error.
func ReadFile(file, wantID string) (*Case, error) {
	data, err := readCaseFile(file)
	if err != nil {
		return nil, err
	}
	return Parse(file, data, wantID)
}

// readCaseFile reads a case file of at most MaxCaseBytes: a larger one is a Problems error.
func readCaseFile(file string) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("read case %s: %w", file, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxCaseBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read case %s: %w", file, err)
	}
	if int64(len(data)) > MaxCaseBytes {
		size := "more than " + strconv.FormatInt(MaxCaseBytes, 10)
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			size = strconv.FormatInt(fi.Size(), 10)
		}
		return nil, Problems{{File: file, Msg: fmt.Sprintf("the file is %s bytes, over the limit of %d for a case file (-max-case-bytes raises it)", size, MaxCaseBytes)}}
	}
	return data, nil
}

// Parse decodes and checks one case. On problems it returns the case as far as it decoded
// (nil when the YAML itself is unusable) and a Problems error.
func Parse(file string, data []byte, wantID string) (*Case, error) {
	p := &parser{file: file}
	p.rawChars(data)
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		p.yamlError(err, nil)
		return nil, p.done()
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		p.add(1, 1, "a case must be one YAML mapping")
		return nil, p.done()
	}
	// A second document would be dropped by every reader and by corpus fmt.
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		p.add(next.Line, 1, "a second YAML document: a case file holds one")
	} else if !errors.Is(err, io.EOF) {
		p.yamlError(err, nil)
	}
	root := doc.Content[0]
	p.root = root
	p.checkKeys(root, "", caseKeys)
	p.checkTags(root, "")
	// checkKeys is the strict-fields check (with positions and suggestions), so the node is
	// decoded directly rather than parsed a second time by a KnownFields decoder.
	if hasUnknownField(p.problems) {
		return nil, p.done()
	}
	var c Case
	if err := root.Decode(&c); err != nil {
		p.yamlError(err, root)
		return nil, p.done()
	}
	c.File = file
	c.SHA256 = fmt.Sprintf("%x", sha256.Sum256(data))
	p.check(&c, root, wantID)
	if len(p.problems) > 0 {
		sort.SliceStable(p.problems, func(i, j int) bool {
			a, b := p.problems[i], p.problems[j]
			return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
		})
		return &c, p.done()
	}
	return &c, nil
}

type parser struct {
	file     string
	root     *yaml.Node // the case mapping, once parsed
	problems Problems
	more     int // problems past MaxProblemsPerFile, counted only
}

func (p *parser) add(line, col int, format string, args ...any) {
	if len(p.problems) >= MaxProblemsPerFile {
		p.more++
		return
	}
	p.problems = append(p.problems, Problem{File: p.file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)})
}

// done returns the problems, then how many more were left out.
func (p *parser) done() Problems {
	if p.more > 0 {
		p.problems = append(p.problems, Problem{File: p.file, Msg: fmt.Sprintf("%d more problems not shown (the first %d are)", p.more, MaxProblemsPerFile)})
	}
	return p.problems
}

// rawChars reports characters that YAML parsers normalise, drop or hide when they stand raw
// in a file; FORMAT.md asks for escapes in double-quoted scalars instead.
func (p *parser) rawChars(data []byte) {
	line, col := 1, 1
	for i := 0; i < len(data); {
		if c := data[i]; c < utf8.RuneSelf { // ASCII, most of a file: its controls are the problems
			switch {
			case c == '\n':
				line, col = line+1, 0
			case (c < ' ' && c != '\t') || c == 0x7f:
				p.add(line, col, "raw %U in the file: write it as an escape in a double-quoted scalar (%s)", rune(c), strconv.QuoteRune(rune(c)))
			}
			i++
			col++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			p.add(line, col, "invalid UTF-8 byte 0x%02x", data[i])
		case r == '\n':
			line, col = line+1, 0
		case r == '\t' || r == ' ':
		case unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zs, unicode.Zl, unicode.Zp, unicode.Co, unicode.Cs) || r == 0xFFFE || r == 0xFFFF:
			p.add(line, col, "raw %U in the file: write it as an escape in a double-quoted scalar (%s)", r, strconv.QuoteRune(r))
		}
		i += size
		col++
	}
}

// nonStringKeys are the case fields whose values are not strings; parameters holds any
// value. On every other scalar, yaml.v3 takes an explicit tag's text as the string (and
// base64-decodes a !!binary one) without a word, so such a tag is a problem.
var nonStringKeys = map[string]bool{"version": true, "kept_tail": true, "message": true, "found": true, "truncated": true, "usage": true, "parameters": true}

// checkTags reports explicitly tagged scalars that yaml.v3 would decode into a string field
// other than as written: any tag but !!str there, and !!binary anywhere. key is the mapping
// key n is the value of.
func (p *parser) checkTags(n *yaml.Node, key string) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			if key == "parameters" || key == "usage" {
				k = key // the values inside are not strings either
			}
			p.checkTags(n.Content[i+1], k)
		}
	case yaml.SequenceNode:
		for _, e := range n.Content {
			p.checkTags(e, key)
		}
	case yaml.ScalarNode:
		tagged := n.Style&yaml.TaggedStyle != 0 && n.Tag != "!!str"
		if tagged && (n.Tag == "!!binary" || !nonStringKeys[key]) {
			p.add(n.Line, n.Column, "%s is a string field: the tag %s is not accepted there (write the text itself, plain or quoted)", key, n.Tag)
		}
	}
}

func hasUnknownField(ps Problems) bool {
	for _, p := range ps {
		if strings.HasPrefix(p.Msg, "unknown field ") {
			return true
		}
	}
	return false
}

var yamlLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// yamlError turns a yaml.v3 error into problems with positions.
func (p *parser) yamlError(err error, root *yaml.Node) {
	var msgs []string
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	} else {
		msgs = []string{err.Error()}
	}
	for _, m := range msgs {
		if sub := yamlLine.FindStringSubmatch(m); sub != nil {
			n, _ := strconv.Atoi(sub[1])
			if strings.HasPrefix(sub[2], "did not find expected") {
				n++ // yaml.v3 gives the 0-based line of the parse context for these
			}
			p.add(n, firstColumn(root, n), "%s", kindMessage(sub[2]))
		} else {
			p.add(1, 0, "%s", strings.TrimPrefix(m, "yaml: "))
		}
	}
}

var wrongKind = regexp.MustCompile("^cannot unmarshal !!(\\w+)(?: (.*))? into (\\S+)$")

// kindMessage says yaml.v3's "cannot unmarshal !!str `maybe` into bool" in the terms of
// the case format ("`maybe` is not true or false"), never the Go type behind the field.
func kindMessage(msg string) string {
	m := wrongKind.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	got := m[2]
	if got == "" {
		got = map[string]string{"map": "a mapping", "seq": "a list", "str": "a string"}[m[1]]
		if got == "" {
			got = "a " + m[1]
		}
	}
	want := "a mapping"
	switch into := strings.TrimPrefix(m[3], "*"); {
	case into == "bool":
		want = "true or false"
	case into == "string":
		want = "a string"
	case strings.HasPrefix(into, "int") || strings.HasPrefix(into, "uint"):
		want = "a whole number"
	case strings.HasPrefix(into, "float"):
		want = "a number"
	case strings.HasPrefix(into, "[]"):
		want = "a list"
	}
	return fmt.Sprintf("%s is not %s", got, want)
}

// firstColumn returns the column of the first node on line, or 0.
func firstColumn(n *yaml.Node, line int) int {
	if n == nil {
		return 0
	}
	if n.Line == line {
		return n.Column
	}
	for _, c := range n.Content {
		if col := firstColumn(c, line); col > 0 {
			return col
		}
	}
	return 0
}
