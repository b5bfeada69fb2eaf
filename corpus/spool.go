package corpus

import (
	"os"
	"runtime"
	"sync"

	"github.com/compacteval/compacteval/internal/bincodec"
)

// A spool keeps the cases that a lazy corpus parsed, each in a binary form, in a temporary
// file, so that Read decodes a case instead of parsing its YAML again: parsing was a third
// of a run's CPU on a corpus too large to be held, every case parsed twice and an eval case
// three times. Read still reads the case's file and compares its SHA-256 with the one it
// had (ErrChanged); the spool only spares the parsing. The file is removed as soon as it is
// created (the open file stays readable), so that not even a killed run leaves it behind;
// on Windows, which removes no open file, and wherever the file cannot be made or written,
// there is no spool and Read parses the files again.
//
// The form is internal/bincodec's: every exported field in order. A case holding what the
// form cannot (a value YAML does not give in an origin's parameters) is not spooled. What
// is decoded is what was encoded, nil and empty lists apart (TestSpoolEveryField).
type spool struct {
	mu  sync.Mutex
	f   *os.File
	off int64
	bad bool // a write failed: nothing more is spooled
}

// spooled is where a case is in the spool; n is 0 for a case that is not.
type spooled struct {
	off int64
	n   int
}

// newSpool returns a spool that makes its file in the temporary folder at the first put,
// or nil where there can be none.
func newSpool() *spool {
	if runtime.GOOS == "windows" {
		return nil
	}
	return &spool{}
}

// put spools c and returns where it is, or a zero spooled when it cannot (s nil, a value
// the form does not hold, a file that cannot be made or written).
func (s *spool) put(c *Case) spooled {
	if s == nil {
		return spooled{}
	}
	data, err := bincodec.Append(nil, c)
	if err != nil || len(data) == 0 {
		return spooled{}
	}
	s.mu.Lock()
	if s.f == nil && !s.bad {
		if f, err := os.CreateTemp("", ".compacteval-corpus-*"); err != nil {
			s.bad = true
		} else {
			os.Remove(f.Name())
			s.f = f
			runtime.AddCleanup(s, func(f *os.File) { f.Close() }, f)
		}
	}
	if s.bad {
		s.mu.Unlock()
		return spooled{}
	}
	at := spooled{off: s.off, n: len(data)}
	s.off += int64(len(data))
	s.mu.Unlock()
	if _, err := s.f.WriteAt(data, at.off); err != nil {
		s.mu.Lock()
		s.bad = true
		s.mu.Unlock()
		return spooled{}
	}
	return at
}

// get decodes the case at at.
func (s *spool) get(at spooled) (*Case, error) {
	data := make([]byte, at.n)
	if _, err := s.f.ReadAt(data, at.off); err != nil {
		return nil, err
	}
	c := new(Case)
	if err := bincodec.Decode(data, c); err != nil {
		return nil, err
	}
	return c, nil
}
