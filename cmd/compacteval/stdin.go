package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/compacteval/compacteval/internal/infile"
	"github.com/compacteval/compacteval/report"
)

// readReport reads a report.json from path, or from stdin when path is "-" (named "stdin"
// in errors).
func readReport(path string, stdin io.Reader) (*report.Report, error) {
	if path != "-" {
		return report.Read(path)
	}
	data, err := infile.ReadAll(stdin, "stdin", infile.MaxReportBytes, "a report")
	if err != nil && !errors.Is(err, infile.ErrTooLarge) {
		return nil, fmt.Errorf("read stdin: %w", err)
	}
	if err != nil {
		return nil, err
	}
	return report.Parse("stdin", data)
}

// contextReader reads r until ctx is done, then fails with context.Cause(ctx): a command
// that reads a terminal's stdin stops on a signal like one that waits for an extractor. A
// read that ctx interrupted goes on in the background until the process exits.
type contextReader struct {
	ctx     context.Context
	r       io.Reader
	pending chan readResult // the read in progress, if any
	rest    []byte          // what a read returned beyond the caller's buffer
}

type readResult struct {
	b   []byte
	err error
}

func newContextReader(ctx context.Context, r io.Reader) io.Reader {
	return &contextReader{ctx: ctx, r: r}
}

func (c *contextReader) Read(p []byte) (int, error) {
	if len(c.rest) > 0 {
		n := copy(p, c.rest)
		c.rest = c.rest[n:]
		return n, nil
	}
	if c.pending == nil {
		if err := c.ctx.Err(); err != nil {
			return 0, context.Cause(c.ctx)
		}
		buf := make([]byte, len(p))
		ch := make(chan readResult, 1)
		go func() {
			n, err := c.r.Read(buf)
			ch <- readResult{buf[:n], err}
		}()
		c.pending = ch
	}
	select {
	case res := <-c.pending:
		c.pending = nil
		n := copy(p, res.b)
		c.rest = res.b[n:]
		if len(c.rest) > 0 {
			return n, nil
		}
		return n, res.err
	case <-c.ctx.Done():
		return 0, context.Cause(c.ctx)
	}
}
