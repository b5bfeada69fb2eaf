package corpus

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/compacteval/compacteval/internal/buildinfo"
)

// Source is one place a run's cases came from.
type Source struct {
	// Kind is "embedded" (the corpus inside the binary) or "folder".
	Kind string `json:"kind"`
	// Dir is the folder as given; empty for the embedded corpus.
	Dir string `json:"dir,omitempty"`
	// Version is the compacteval build that carries the embedded corpus.
	Version string `json:"version,omitempty"`
	// Cases counts the cases it gave, SHA256 digests them (see Digest).
	Cases  int    `json:"cases"`
	SHA256 string `json:"sha256"`
	// Replaced counts its cases that a later source replaced (same id).
	Replaced int `json:"replaced,omitempty"`

	// Golden holds golden/<extractor>/<id>.txt files for these cases; nil when there are
	// none.
	Golden fs.FS `json:"-"`
}

// Corpus is the cases of a run and where they came from.
type Corpus struct {
	Cases   []*Case
	Sources []Source
	// Problems are the case files that did not load, with their positions.
	Problems Problems
	// Repeated are the case files a later source reached again (the same file by its real
	// path, through a sub-folder, the same folder twice or a link), as that source named
	// them: each was read once, from the first source, and the later source does not count it.
	Repeated []string

	from map[string]int // case id -> the source it came from
}

// Digest returns the SHA-256 of a set of cases, over their ids and file digests in id
// order: two corpora with the same cases have the same digest wherever they were read
// from.
func Digest(cases []*Case) string {
	sorted := append([]*Case(nil), cases...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].ID < sorted[j].ID })
	h := sha256.New()
	for _, c := range sorted {
		fmt.Fprintf(h, "%s\x00%s\n", c.ID, c.SHA256)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// Open reads the corpora named by values, in order: EmbeddedLabel for the bundled one, any
// other value a folder (or a category folder, or one case file) read with Load, whose
// goldens are the golden folder beside it when one exists. A case whose id an earlier
// source has too replaces it; a case file an earlier source read already (the same real
// path) is left out and listed in Corpus.Repeated. With no values the bundled corpus is
// read. Case files that do not load are Corpus.Problems; a folder that cannot be read is an error.
func Open(values []string) (*Corpus, error) {
	if len(values) == 0 {
		values = []string{EmbeddedLabel}
	}
	out := &Corpus{from: map[string]int{}}
	index := map[string]int{} // id -> position in out.Cases
	from := out.from
	read := map[string]bool{} // the real paths of the case files read
	for _, v := range values {
		var cases []*Case
		var err error
		src := Source{Kind: "folder", Dir: v}
		if v == EmbeddedLabel {
			src = Source{Kind: EmbeddedLabel, Version: buildinfo.Version(), Golden: EmbeddedGolden()}
			cases, err = LoadFS(Embedded(), EmbeddedLabel)
		} else {
			if _, serr := os.Stat(v); serr != nil {
				return nil, fmt.Errorf("corpus %s: %w", v, serr)
			}
			cases, err = Load(v)
			if g := DefaultGolden(v); isDir(g) {
				src.Golden = os.DirFS(g)
			}
		}
		var ps Problems
		if errors.As(err, &ps) {
			out.Problems = append(out.Problems, ps...)
		} else if err != nil {
			return nil, err
		}
		if src.Kind == "folder" {
			cases = out.firstReads(cases, read)
		}
		src.Cases, src.SHA256 = len(cases), Digest(cases)
		for _, c := range cases {
			if i, dup := index[c.ID]; dup {
				out.Sources[from[c.ID]].Replaced++
				out.Cases[i] = c
			} else {
				index[c.ID] = len(out.Cases)
				out.Cases = append(out.Cases, c)
			}
			from[c.ID] = len(out.Sources)
		}
		out.Sources = append(out.Sources, src)
	}
	sort.Slice(out.Cases, func(i, j int) bool { return out.Cases[i].ID < out.Cases[j].ID })
	return out, nil
}

// firstReads returns the cases whose files no earlier source read, by real path, and adds the
// others to c.Repeated. A file whose real path cannot be found counts by its name.
func (c *Corpus) firstReads(cases []*Case, read map[string]bool) []*Case {
	var kept []*Case
	for _, k := range cases {
		real, err := filepath.EvalSymlinks(k.File)
		if err == nil {
			real, err = filepath.Abs(real)
		}
		if err != nil {
			real = k.File
		}
		if read[real] {
			c.Repeated = append(c.Repeated, k.File)
			continue
		}
		read[real] = true
		kept = append(kept, k)
	}
	return kept
}

// Digest returns the digest of the corpus's cases.
func (c *Corpus) Digest() string { return Digest(c.Cases) }

// GoldenOf returns the golden files of the source case id came from, or nil.
func (c *Corpus) GoldenOf(id string) fs.FS {
	if i, ok := c.from[id]; ok {
		return c.Sources[i].Golden
	}
	return nil
}

// DefaultGolden is the golden folder beside a corpus folder: corpus/cases -> corpus/golden.
// A category folder (corpus/cases/fenced) has its goldens in the same place.
func DefaultGolden(dir string) string {
	d := filepath.Clean(dir)
	if filepath.Base(d) != "cases" {
		if up := filepath.Dir(d); filepath.Base(up) == "cases" {
			d = up
		}
	}
	return filepath.Join(filepath.Dir(d), "golden")
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
