// Package infile reads compacteval's input files within a size limit, so that a file
// given by mistake or in malice (/dev/zero as a session, a 40 GB log) ends in an error
// that names it and its limit instead of filling memory.
package infile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// The limits of the inputs compacteval reads whole. A session or a report of a large
// corpus runs to tens of megabytes; the limits leave room for ten times that.
const (
	// MaxSessionBytes bounds a pi session or Claude Code transcript (score, review -sessions).
	MaxSessionBytes = 512 << 20
	// MaxReportBytes bounds a report.json (report, gate, its -baseline).
	MaxReportBytes = 512 << 20
	// MaxConfigBytes bounds gate.yaml.
	MaxConfigBytes = 1 << 20
	// MaxResponseBytes bounds the model response extract reads.
	MaxResponseBytes = 64 << 20
	// MaxTextBytes bounds an instruction text (-prompt text:FILE, -base-file, -head-file).
	MaxTextBytes = 4 << 20
)

// ErrTooLarge is wrapped by the error of a file over its limit.
var ErrTooLarge = errors.New("over the size limit")

// TooLargeError reports an input over its limit; no more of it was read.
type TooLargeError struct {
	Name, What string
	Limit      int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s: longer than %s, the limit on %s", e.Name, Size(e.Limit), e.What)
}

func (e *TooLargeError) Unwrap() error { return ErrTooLarge }

// Read returns the content of path, or an error naming it when it holds more than limit
// bytes (what says what the file is for: "a session file"). A device (/dev/zero) is
// refused unread; a pipe that never ends is read up to the limit only.
func Read(path string, limit int64, what string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	switch {
	case fi.IsDir():
		return nil, fmt.Errorf("%s: a folder, not %s", path, what)
	case fi.Mode()&os.ModeDevice != 0:
		return nil, fmt.Errorf("%s: a device, not %s", path, what)
	case fi.Mode().IsRegular() && fi.Size() > limit:
		return nil, &TooLargeError{Name: path, What: what, Limit: limit}
	}
	return ReadAll(f, path, limit, what)
}

// ReadAll is Read for a reader (stdin), named name in the error of a reader over the
// limit; the error of a read that fails is the reader's own.
//
// A regular file (a response given by name, or as stdin) is read into a buffer of its size,
// grown once: io.ReadAll grows its slice a quarter at a time, which for a 10 MB response
// allocated 34 MB and took twice as long as the read itself.
func ReadAll(r io.Reader, name string, limit int64, what string) ([]byte, error) {
	var buf bytes.Buffer
	if f, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() <= limit {
			buf.Grow(int(fi.Size()) + bytes.MinRead) // room to read the end of the file into
		}
	}
	if _, err := buf.ReadFrom(io.LimitReader(r, limit+1)); err != nil {
		return nil, err // as the reader said it: the caller words it
	}
	if int64(buf.Len()) > limit {
		return nil, &TooLargeError{Name: name, What: what, Limit: limit}
	}
	return buf.Bytes(), nil
}

// Size writes a byte count the way the limits are documented: 512 MiB, 64 KiB, 100 bytes.
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
