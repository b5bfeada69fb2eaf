package casefile

import (
	"encoding/binary"
	"errors"

	"github.com/compacteval/compacteval/report"
)

// The cases are written in a binary form of their own rather than as JSON: the reports read
// every case several times (report.json, the Markdown, the page's passes), and decoding
// JSON was a tenth of a run's CPU on a corpus too large to be held. A string is its length
// and its bytes, a bool a byte, and a list or a pointer its length plus one (0 for nil), so
// that what is read back is exactly what was added, nil and empty lists apart
// (TestCaseCodecEveryField holds it to every field of report.Case and report.Result).

// appendCase appends c's encoding to b.
func appendCase(b []byte, c *report.Case) []byte {
	b = appendString(b, c.ID)
	b = appendString(b, c.Title)
	b = appendLen(b, len(c.Categories), c.Categories == nil)
	for _, s := range c.Categories {
		b = appendString(b, s)
	}
	b = appendString(b, c.Origin)
	b = appendBool(b, c.IntendedFound)
	b = appendString(b, c.Response)
	b = appendString(b, c.Intended)
	b = appendLen(b, len(c.Results), c.Results == nil)
	for i := range c.Results {
		r := &c.Results[i]
		b = appendString(b, r.Extractor)
		b = appendBool(b, r.OK)
		b = appendString(b, r.Path)
		b = appendBool(b, r.MatchesIntended)
		b = appendString(b, r.KnownDeviation)
		b = appendString(b, r.Golden)
		b = appendString(b, r.GoldenPath)
		b = appendBool(b, r.PathOnly)
		if r.Summary == nil {
			b = appendLen(b, 0, true)
		} else {
			b = appendLen(b, 1, false)
			b = appendString(b, *r.Summary)
		}
	}
	return b
}

// errCaseCodec is a case whose encoding is cut short or runs on.
var errCaseCodec = errors.New("malformed case")

// decodeCase decodes what appendCase wrote into c.
func decodeCase(data []byte, c *report.Case) error {
	d := decoder{b: data}
	c.ID = d.string()
	c.Title = d.string()
	if n, ok := d.len(); ok {
		c.Categories = make([]string, 0, n)
		for range n {
			c.Categories = append(c.Categories, d.string())
		}
	}
	c.Origin = d.string()
	c.IntendedFound = d.bool()
	c.Response = d.string()
	c.Intended = d.string()
	if n, ok := d.len(); ok {
		c.Results = make([]report.Result, n)
		for i := range c.Results {
			r := &c.Results[i]
			r.Extractor = d.string()
			r.OK = d.bool()
			r.Path = d.string()
			r.MatchesIntended = d.bool()
			r.KnownDeviation = d.string()
			r.Golden = d.string()
			r.GoldenPath = d.string()
			r.PathOnly = d.bool()
			if _, ok := d.len(); ok {
				s := d.string()
				r.Summary = &s
			}
		}
	}
	if d.bad || len(d.b) > 0 {
		return errCaseCodec
	}
	return nil
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// appendLen appends the length of a list or a pointer (1 for a pointer that is not nil).
func appendLen(b []byte, n int, isNil bool) []byte {
	if isNil {
		return binary.AppendUvarint(b, 0)
	}
	return binary.AppendUvarint(b, uint64(n)+1)
}

// decoder reads what the append functions wrote; once it has gone wrong (bad), it yields
// zero values.
type decoder struct {
	b   []byte
	bad bool
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.bad, d.b = true, nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) string() string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.bad, d.b = true, nil
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *decoder) bool() bool {
	if len(d.b) == 0 || d.b[0] > 1 {
		d.bad, d.b = true, nil
		return false
	}
	v := d.b[0] == 1
	d.b = d.b[1:]
	return v
}

// len returns a list's length, and false for nil.
func (d *decoder) len() (int, bool) {
	n := d.uvarint()
	if n == 0 || n-1 > uint64(len(d.b)) { // every element takes a byte at least
		if n != 0 {
			d.bad, d.b = true, nil
		}
		return 0, false
	}
	return int(n - 1), true
}
