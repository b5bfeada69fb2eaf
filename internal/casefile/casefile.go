// Package casefile keeps a report's cases in a temporary file while a run goes, so that
// the run holds one case at a time however many the corpus has: a report.CaseSource.
//
// The file is JSON lines, one report.Case each, created with a name of its own (never over
// an existing file) and removed at once where the system allows it (the open file stays
// readable), so that not even a killed run leaves it behind; elsewhere Close removes it. JSON keeps every value of a Case except a string
// that is not valid UTF-8, which it would replace: such a case (an extractor may cut a
// summary inside a character) is kept in memory instead, so that what is read back is
// exactly what was added.
package casefile

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"runtime"
	"unicode/utf8"

	"github.com/compacteval/compacteval/report"
)

// File is a growing list of cases kept in a temporary file. Add and All must not be
// called at the same time.
type File struct {
	f    *os.File
	w    *bufio.Writer
	n    int
	held map[int]report.Case // the cases JSON would change, by index
	err  error
}

// Create creates the file in dir ("" is os.TempDir()), under a new name starting with
// ".compacteval-cases-".
func Create(dir string) (*File, error) {
	f, err := os.CreateTemp(dir, ".compacteval-cases-*.jsonl")
	if err != nil {
		return nil, fmt.Errorf("keep the cases: %w", err)
	}
	if runtime.GOOS != "windows" { // Windows removes no open file
		os.Remove(f.Name())
	}
	return &File{f: f, w: bufio.NewWriterSize(f, 64<<10), held: map[int]report.Case{}}, nil
}

// Add appends c. Once an Add has failed, every later one returns the same error.
func (f *File) Add(c *report.Case) error {
	if f.err != nil {
		return f.err
	}
	if !valid(c) {
		f.held[f.n] = clone(c)
		c = &report.Case{} // a line of its own all the same: line i is case i
	}
	data, err := json.Marshal(c)
	if err == nil {
		data = append(data, '\n')
		_, err = f.w.Write(data)
	}
	if err != nil {
		f.err = fmt.Errorf("keep case %s: %w", c.ID, err)
		return f.err
	}
	f.n++
	return nil
}

// Len returns the number of cases added.
func (f *File) Len() int { return f.n }

// All yields the cases added so far in order, each decoded anew, reading the file from
// its start.
func (f *File) All() iter.Seq2[*report.Case, error] {
	return func(yield func(*report.Case, error) bool) {
		if f.err == nil {
			if err := f.w.Flush(); err != nil {
				f.err = fmt.Errorf("keep the cases: %w", err)
			}
		}
		if f.err != nil {
			yield(nil, f.err)
			return
		}
		r := bufio.NewReaderSize(io.NewSectionReader(f.f, 0, 1<<62), 64<<10)
		for i := range f.n {
			line, err := readLine(r)
			if err != nil {
				yield(nil, fmt.Errorf("read case %d of %s: %w", i+1, f.f.Name(), err))
				return
			}
			c := new(report.Case)
			if h, ok := f.held[i]; ok {
				*c = clone(&h)
			} else if err := json.Unmarshal(line, c); err != nil {
				yield(nil, fmt.Errorf("read case %d of %s: %w", i+1, f.f.Name(), err))
				return
			}
			if !yield(c, nil) {
				return
			}
		}
	}
}

// Close closes and removes the file. It may be called more than once.
func (f *File) Close() error {
	if f.f == nil {
		return nil
	}
	name := f.f.Name()
	err := f.f.Close()
	f.f = nil
	if rerr := os.Remove(name); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
		err = errors.Join(err, rerr)
	}
	return err
}

// readLine returns the next line without its newline, however long.
func readLine(r *bufio.Reader) ([]byte, error) {
	line, err := r.ReadBytes('\n')
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF // every case line ends with a newline
	}
	if err != nil {
		return nil, err
	}
	return line[:len(line)-1], nil
}

// valid reports whether every string of c is valid UTF-8, so that JSON keeps it as it is.
func valid(c *report.Case) bool {
	ok := utf8.ValidString(c.ID) && utf8.ValidString(c.Title) && utf8.ValidString(c.Origin) &&
		utf8.ValidString(c.Response) && utf8.ValidString(c.Intended)
	for _, s := range c.Categories {
		ok = ok && utf8.ValidString(s)
	}
	for _, r := range c.Results {
		ok = ok && utf8.ValidString(r.Extractor) && utf8.ValidString(r.Path) && utf8.ValidString(r.KnownDeviation) &&
			utf8.ValidString(r.Golden) && utf8.ValidString(r.GoldenPath) && (r.Summary == nil || utf8.ValidString(*r.Summary))
	}
	return ok
}

// clone returns a copy of c that shares no slice or pointer with it.
func clone(c *report.Case) report.Case {
	out := *c
	if c.Categories != nil {
		out.Categories = append([]string{}, c.Categories...)
	}
	if c.Results != nil {
		out.Results = append([]report.Result{}, c.Results...)
		for i, r := range out.Results {
			if r.Summary != nil {
				s := *r.Summary
				out.Results[i].Summary = &s
			}
		}
	}
	return out
}
