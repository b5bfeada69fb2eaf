// Package casefile keeps a report's cases and eval cases in temporary files while a run
// goes, so that the run holds one at a time however many the corpus has: a
// report.CaseSource (File) and a report.EvalSource (EvalFile).
//
// A file is a run of records, one value each (its length, then its encoding), created with
// a name of its own (never over an existing file) and removed at once where the system
// allows it (the open file stays readable), so that not even a killed run leaves it behind;
// elsewhere Close removes it. A Case is written in internal/bincodec's binary form (the
// reports read every case several times, and decoding JSON was a tenth of a run's CPU on a
// corpus too large to be held), an eval.Result as JSON. JSON keeps every value of a Result except a string that is not
// valid UTF-8, which it would replace: such a value (an extractor may cut a summary inside
// a character), of either list, is kept in memory instead, so that what is read back is
// exactly what was added. Of an eval.Result, what is read back is what its JSON holds, with
// the weighted shares exact (their JSON rounds them): the same document, byte for byte, and
// nothing the renderers read is lost.
package casefile

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"reflect"
	"runtime"
	"unicode/utf8"

	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/internal/bincodec"
	"github.com/compacteval/compacteval/report"
)

// File is a growing list of report cases kept in a temporary file.
type File = List[report.Case]

// EvalFile is a growing list of eval results kept in a temporary file.
type EvalFile = List[eval.Result]

// List is a growing list of values kept in a temporary file. Add and All must not be
// called at the same time.
type List[T any] struct {
	f    *os.File
	w    *bufio.Writer
	n    int
	held map[int]T // the values JSON would change, by index
	err  error
	c    codec[T]

	lenBuf [binary.MaxVarintLen64]byte
}

// codec is how a List writes and reads its values.
type codec[T any] struct {
	what      string // names a value in errors
	id        func(*T) string
	marshal   func(*T) ([]byte, error)
	unmarshal func([]byte, *T) error
}

// Create creates a file of report cases in dir ("" is os.TempDir()), under a new name
// starting with ".compacteval-cases-".
func Create(dir string) (*File, error) {
	return create(dir, ".compacteval-cases-*.jsonl", codec[report.Case]{
		what:      "case",
		id:        func(c *report.Case) string { return c.ID },
		marshal:   func(c *report.Case) ([]byte, error) { return bincodec.Append(nil, c) },
		unmarshal: bincodec.Decode[report.Case],
	})
}

// CreateEval creates a file of eval results in dir ("" is os.TempDir()), under a new name
// starting with ".compacteval-eval-".
func CreateEval(dir string) (*EvalFile, error) {
	return create(dir, ".compacteval-eval-*.jsonl", codec[eval.Result]{
		what:      "eval case",
		id:        func(r *eval.Result) string { return r.ID },
		marshal:   marshalResult,
		unmarshal: unmarshalResult,
	})
}

func create[T any](dir, pattern string, c codec[T]) (*List[T], error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, fmt.Errorf("keep the %ss: %w", c.what, err)
	}
	if runtime.GOOS != "windows" { // Windows removes no open file
		os.Remove(f.Name())
	}
	return &List[T]{f: f, w: bufio.NewWriterSize(f, 64<<10), held: map[int]T{}, c: c}, nil
}

// Add appends v. Once an Add has failed, every later one returns the same error.
func (l *List[T]) Add(v *T) error {
	if l.err != nil {
		return l.err
	}
	id := l.c.id(v)
	if !validUTF8(reflect.ValueOf(v).Elem()) {
		l.held[l.n] = clone(v)
		v = new(T) // a record of its own all the same: record i is value i
	}
	data, err := l.c.marshal(v)
	if err == nil {
		_, err = l.w.Write(binary.AppendUvarint(l.lenBuf[:0], uint64(len(data))))
	}
	if err == nil {
		_, err = l.w.Write(data)
	}
	if err != nil {
		l.err = fmt.Errorf("keep %s %s: %w", l.c.what, id, err)
		return l.err
	}
	l.n++
	return nil
}

// Len returns the number of values added.
func (l *List[T]) Len() int { return l.n }

// All yields the values added so far in order, each decoded anew, reading the file from
// its start.
func (l *List[T]) All() iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		if l.err == nil {
			if err := l.w.Flush(); err != nil {
				l.err = fmt.Errorf("keep the %ss: %w", l.c.what, err)
			}
		}
		if l.err != nil {
			yield(nil, l.err)
			return
		}
		r := bufio.NewReaderSize(io.NewSectionReader(l.f, 0, 1<<62), 64<<10)
		var buf []byte
		for i := range l.n {
			var err error
			buf, err = readRecord(r, buf)
			if err != nil {
				yield(nil, fmt.Errorf("read %s %d of %s: %w", l.c.what, i+1, l.f.Name(), err))
				return
			}
			v := new(T)
			if h, ok := l.held[i]; ok {
				*v = clone(&h)
			} else if err := l.c.unmarshal(buf, v); err != nil {
				yield(nil, fmt.Errorf("read %s %d of %s: %w", l.c.what, i+1, l.f.Name(), err))
				return
			}
			if !yield(v, nil) {
				return
			}
		}
	}
}

// Close closes and removes the file. It may be called more than once.
func (l *List[T]) Close() error {
	if l.f == nil {
		return nil
	}
	name := l.f.Name()
	err := l.f.Close()
	l.f = nil
	if rerr := os.Remove(name); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
		err = errors.Join(err, rerr)
	}
	return err
}

// readRecord returns the next record, however long, in buf's memory when it fits (the
// codecs copy what they keep).
func readRecord(r *bufio.Reader, buf []byte) ([]byte, error) {
	n, err := binary.ReadUvarint(r)
	if err == nil && n > 1<<40 {
		err = errors.New("a record too long")
	}
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF // l.n records were written
		}
		return nil, err
	}
	if uint64(cap(buf)) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	if _, err := io.ReadFull(r, buf); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return buf, nil
}

// resultLine is an eval result as a record holds it: its JSON, and the weighted shares'
// sums as they are (their JSON rounds them to four decimals, and the value it gives is
// computed from the sums before rounding).
type resultLine struct {
	Result   *eval.Result `json:"r"`
	Weighted [4]float64   `json:"w"`
}

func marshalResult(r *eval.Result) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(resultLine{Result: r, Weighted: [4]float64{r.WeightedCoverage.Hit, r.WeightedCoverage.Of,
		r.WeightedBoundaryCoverage.Hit, r.WeightedBoundaryCoverage.Of}})
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), err
}

func unmarshalResult(data []byte, r *eval.Result) error {
	line := resultLine{Result: r}
	if err := json.Unmarshal(data, &line); err != nil {
		return err
	}
	w := line.Weighted
	r.WeightedCoverage = eval.Weighted{Hit: w[0], Of: w[1]}
	r.WeightedBoundaryCoverage = eval.Weighted{Hit: w[2], Of: w[3]}
	return nil
}

// validUTF8 reports whether every string JSON writes of v is valid UTF-8, so that JSON
// keeps it as it is.
func validUTF8(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String:
		return utf8.ValidString(v.String())
	case reflect.Pointer, reflect.Interface:
		return v.IsNil() || validUTF8(v.Elem())
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if !validUTF8(v.Index(i)) {
				return false
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if !validUTF8(it.Key()) || !validUTF8(it.Value()) {
				return false
			}
		}
	case reflect.Struct:
		t := v.Type()
		for i := range v.NumField() {
			if f := t.Field(i); (f.IsExported() || f.Anonymous) && f.Tag.Get("json") != "-" && !validUTF8(v.Field(i)) {
				return false
			}
		}
	}
	return true
}

// clone returns a copy of *v that shares no slice, map or pointer with it (through its
// exported fields: the others are copied as they are).
func clone[T any](v *T) T {
	out := *v
	detach(reflect.ValueOf(&out).Elem())
	return out
}

// detach replaces every slice, map and pointer reachable from v (settable) by a copy.
func detach(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || !v.CanSet() {
			return
		}
		p := reflect.New(v.Type().Elem())
		p.Elem().Set(v.Elem())
		detach(p.Elem())
		v.Set(p)
	case reflect.Slice:
		if v.IsNil() || !v.CanSet() {
			return
		}
		s := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		reflect.Copy(s, v)
		for i := range s.Len() {
			detach(s.Index(i))
		}
		v.Set(s)
	case reflect.Map:
		if v.IsNil() || !v.CanSet() {
			return
		}
		m := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(it.Value())
			detach(e)
			m.SetMapIndex(it.Key(), e)
		}
		v.Set(m)
	case reflect.Array:
		for i := range v.Len() {
			detach(v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			detach(v.Field(i))
		}
	}
}
