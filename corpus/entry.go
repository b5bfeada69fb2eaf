package corpus

import (
	"crypto/sha256"
	"errors"
	"fmt"

	"github.com/compacteval/compacteval/internal/par"
)

// Entry is what a corpus keeps of a case between reads: enough to select it, count it and
// digest it, without its texts. Read returns the case itself.
type Entry struct {
	ID         string
	File       string
	SHA256     string
	Categories []string
	// IntendedFound is the case's intended.found; Conversation is true when the case has a
	// conversation (eval scores it).
	IntendedFound bool
	Conversation  bool
	// Bytes is the size of the case's texts (its response, intended summary and
	// conversation): what holding the case costs, give or take the parsing, for callers of
	// Read that size their batches by it.
	Bytes int

	at int // the case's position in the corpus it came from
}

// HasCategory reports whether e is in category cat.
func (e Entry) HasCategory(cat string) bool {
	for _, x := range e.Categories {
		if x == cat {
			return true
		}
	}
	return false
}

func entryOf(c *Case) Entry {
	return Entry{ID: c.ID, File: c.File, SHA256: c.SHA256, Categories: c.Categories,
		IntendedFound: c.Intended.Found, Conversation: len(c.Conversation) > 0, Bytes: textBytes(c)}
}

// textBytes returns the size of c's texts.
func textBytes(c *Case) int {
	n := len(c.Response) + len(c.Intended.Summary)
	for _, m := range c.Conversation {
		n += len(m.Text)
		for _, tc := range m.ToolCalls {
			n += len(tc.Input)
		}
	}
	return n
}

// Held reports whether c holds every case, so that Read reads no file: a corpus of Open,
// or of OpenHolding within its budget.
func (c *Corpus) Held() bool {
	if c.Cases != nil || c.entries == nil {
		return true
	}
	for _, l := range c.entries {
		if l.c == nil {
			return false
		}
	}
	return true
}

// Len returns the number of cases.
func (c *Corpus) Len() int {
	if c.Cases != nil {
		return len(c.Cases)
	}
	return len(c.entries)
}

// Entries returns an entry for each case, in the order of Cases (id order for a corpus
// that Open or OpenLazy read).
func (c *Corpus) Entries() []Entry {
	if c.Cases != nil || c.entries == nil {
		out := make([]Entry, len(c.Cases))
		for i, k := range c.Cases {
			out[i] = entryOf(k)
			out[i].at = i
		}
		return out
	}
	out := make([]Entry, len(c.entries))
	for i, l := range c.entries {
		out[i] = l.entry
		out[i].at = i
	}
	return out
}

// ErrChanged is the error of Read for a case file whose bytes are no longer those that
// OpenLazy read.
var ErrChanged = errors.New("the case file changed since the corpus was opened")

// Read returns the cases of entries (which c.Entries returned), in order: those c holds, and
// the others read again from their files, in parallel. A file that no longer reads, or
// whose bytes changed since the corpus was opened (ErrChanged), is an error naming it.
// Problems of a case that loaded with problems are not repeated.
func (c *Corpus) Read(entries []Entry) ([]*Case, error) {
	out := make([]*Case, len(entries))
	if c.Cases != nil || c.entries == nil {
		for i, e := range entries {
			if e.at >= len(c.Cases) || c.Cases[e.at].ID != e.ID {
				return nil, fmt.Errorf("read case %s: not a case of this corpus", e.ID)
			}
			out[i] = c.Cases[e.at]
		}
		return out, nil
	}
	errs := make([]error, len(entries))
	par.Do(len(entries), func(i int) { out[i], errs[i] = c.reread(entries[i]) })
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}

// reread reads e's case again from its file.
func (c *Corpus) reread(e Entry) (*Case, error) {
	if e.at >= len(c.entries) || c.entries[e.at].entry.ID != e.ID {
		return nil, fmt.Errorf("read case %s: not a case of this corpus", e.ID)
	}
	l := c.entries[e.at]
	if l.c != nil {
		return l.c, nil
	}
	data, err := l.ref.read()
	var k *Case
	if err == nil {
		if l.at.n > 0 && fmt.Sprintf("%x", sha256.Sum256(data)) == e.SHA256 {
			if k, err = c.spool.get(l.at); err == nil {
				return k, nil
			}
		}
		k, err = Parse(l.ref.name, data, l.ref.id)
	}
	var ps Problems
	if err != nil && !errors.As(err, &ps) {
		return nil, err // it names the file
	}
	if k == nil || k.SHA256 != e.SHA256 || k.ID != e.ID {
		return nil, fmt.Errorf("read case %s: %w", l.ref.name, ErrChanged)
	}
	return k, nil
}
