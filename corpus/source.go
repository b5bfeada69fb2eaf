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
	// Cases are the cases in id order; nil for a corpus opened with OpenLazy, whose cases
	// Entries and Read give.
	Cases   []*Case
	Sources []Source
	// Problems are the case files that did not load, with their positions.
	Problems Problems
	// Repeated are the case files a later source reached again (the same file by its real
	// path, through a sub-folder, the same folder twice or a link), as that source named
	// them: each was read once, from the first source, and the later source does not count it.
	Repeated []string

	from    map[string]int // case id -> the source it came from
	entries []loaded       // every case in id order, kept or not (Open, OpenLazy)
	spool   *spool         // the cases not kept (OpenLazy, OpenHolding), or nil
}

// Digest returns the SHA-256 of a set of cases, over their ids and file digests in id
// order: two corpora with the same cases have the same digest wherever they were read
// from.
func Digest(cases []*Case) string {
	es := make([]Entry, len(cases))
	for i, c := range cases {
		es[i] = Entry{ID: c.ID, SHA256: c.SHA256}
	}
	return digest(es)
}

func digest(es []Entry) string {
	sorted := append([]Entry(nil), es...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].ID < sorted[j].ID })
	h := sha256.New()
	for _, e := range sorted {
		fmt.Fprintf(h, "%s\x00%s\n", e.ID, e.SHA256)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// Open reads the corpora named by values, in order: EmbeddedLabel for the bundled one, any
// other value a folder (or a category folder, or one case file) read with Load, whose
// goldens are the golden folder beside it when one exists. A case whose id an earlier
// source has too replaces it; a case file an earlier source read already (the same real
// path) is left out and listed in Corpus.Repeated. With no values the bundled corpus is
// read. Case files that do not load are Corpus.Problems; a folder that cannot be read is an error.
func Open(values []string) (*Corpus, error) { return open(values, holdAll) }

// OpenLazy is Open without keeping the cases: it reads and checks every case file as Open
// does (the same Problems, Sources, Repeated and Digest) but keeps only each case's Entry,
// and Cases is nil. Read reads cases again from their files when they are needed, so a
// caller that takes them a batch at a time holds one batch, whatever the corpus's size; it
// decodes each from a spool of the cases as parsed (a temporary file, removed at once)
// instead of parsing the file again, once it has checked that the file is unchanged.
func OpenLazy(values []string) (*Corpus, error) {
	return open(values, &holder{none: true, spool: newSpool()})
}

// OpenHolding is OpenLazy holding every case when the texts (Entry.Bytes) of the case
// files it reads, replaced ones too, fit together in budget bytes, and none otherwise;
// Cases is nil. Read returns held cases without reading their files again, so a corpus
// that fits is parsed once, and a larger one is OpenLazy's (while it is read, it holds up
// to budget bytes of texts).
func OpenHolding(values []string, budget int) (*Corpus, error) {
	h := &holder{spool: newSpool()}
	h.left.Store(int64(budget))
	return open(values, h)
}

func open(values []string, h *holder) (*Corpus, error) {
	if len(values) == 0 {
		values = []string{EmbeddedLabel}
	}
	out := &Corpus{from: map[string]int{}}
	index := map[string]int{} // id -> position in out.entries
	from := out.from
	read := map[string]bool{} // the real paths of the case files read
	for _, v := range values {
		var ls []loaded
		var err error
		src := Source{Kind: "folder", Dir: v}
		if v == EmbeddedLabel {
			src = Source{Kind: EmbeddedLabel, Version: buildinfo.Version(), Golden: EmbeddedGolden()}
			ls, err = loadFS(Embedded(), EmbeddedLabel, h)
		} else {
			if _, serr := os.Stat(v); serr != nil {
				return nil, fmt.Errorf("corpus %s: %w", v, serr)
			}
			ls, err = loadDir(v, h)
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
			ls = out.firstReads(ls, read)
		}
		es := make([]Entry, len(ls))
		for i, l := range ls {
			es[i] = l.entry
		}
		src.Cases, src.SHA256 = len(ls), digest(es)
		for _, l := range ls {
			id := l.entry.ID
			if i, dup := index[id]; dup {
				out.Sources[from[id]].Replaced++
				out.entries[i] = l
			} else {
				index[id] = len(out.entries)
				out.entries = append(out.entries, l)
			}
			from[id] = len(out.Sources)
		}
		out.Sources = append(out.Sources, src)
	}
	if h != nil && h.refused.Load() { // all or none: a corpus that does not fit is read lazily
		for i := range out.entries {
			if l := &out.entries[i]; l.c != nil {
				l.at = h.spool.put(l.c)
				l.c = nil
			}
		}
	}
	if h != nil {
		out.spool = h.spool
	}
	sort.Slice(out.entries, func(i, j int) bool { return out.entries[i].entry.ID < out.entries[j].entry.ID })
	if h == holdAll {
		out.Cases, _ = cases(out.entries, nil)
	}
	return out, nil
}

// firstReads returns the cases whose files no earlier source read, by real path, and adds the
// others to c.Repeated. A file whose real path cannot be found counts by its name.
func (c *Corpus) firstReads(ls []loaded, read map[string]bool) []loaded {
	var kept []loaded
	for _, l := range ls {
		file := l.entry.File
		real, err := filepath.EvalSymlinks(file)
		if err == nil {
			real, err = filepath.Abs(real)
		}
		if err != nil {
			real = file
		}
		if read[real] {
			c.Repeated = append(c.Repeated, file)
			continue
		}
		read[real] = true
		kept = append(kept, l)
	}
	return kept
}

// Digest returns the digest of the corpus's cases.
func (c *Corpus) Digest() string { return digest(c.Entries()) }

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
