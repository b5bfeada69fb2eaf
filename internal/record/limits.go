package record

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// The bounds of compacteval record. An answer of compact.MaxTokens tokens is a few hundred
// kilobytes of JSON and the largest corpus case under 200 KB, so both leave wide room while
// keeping a hostile or broken server from filling memory or the disk.
const (
	// DefaultMaxResponseBytes bounds the body of one provider response (-max-response-bytes).
	// A batch's result file may hold this much per request of the batch.
	DefaultMaxResponseBytes = 8 << 20
	// DefaultMaxCaseBytes bounds a recorded case file (-max-case-bytes).
	DefaultMaxCaseBytes = 4 << 20
)

// ErrTooLarge is wrapped by the errors of a response or a case over its bound.
var ErrTooLarge = errors.New("over the size limit")

// BodyTooLargeError reports a response body longer than its bound; no more of it is read.
type BodyTooLargeError struct {
	Method, URL string
	Limit       int64
}

func (e *BodyTooLargeError) Error() string {
	return fmt.Sprintf("the response to %s %s is longer than %s, the limit on a response body", e.Method, e.URL, byteSize(e.Limit))
}

func (e *BodyTooLargeError) Unwrap() error { return ErrTooLarge }

// answersKey carries, in a request's context, how many answers its response may hold (a
// batch's result file holds every answer of the batch).
type answersKey struct{}

// withAnswers returns ctx for requests whose responses hold up to n answers.
func withAnswers(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, answersKey{}, n)
}

// limitBody replaces res.Body with one that fails with a *BodyTooLargeError once more than
// limit bytes per answer the request's context allows have been read.
func limitBody(req *http.Request, res *http.Response, limit int64) {
	if n, ok := req.Context().Value(answersKey{}).(int); ok && n > 1 {
		limit *= int64(n)
	}
	if limit <= 0 || res.Body == nil {
		return
	}
	if res.ContentLength > limit {
		res.Body.Close()
		res.Body = errBody{&BodyTooLargeError{Method: req.Method, URL: req.URL.Redacted(), Limit: limit}}
		return
	}
	res.Body = &limitedBody{rc: res.Body, left: limit, err: &BodyTooLargeError{Method: req.Method, URL: req.URL.Redacted(), Limit: limit}}
}

// limitedBody reads at most left bytes and then fails, rather than stopping silently as
// io.LimitReader does, so that a cut answer is never taken for a whole one.
type limitedBody struct {
	rc   io.ReadCloser
	left int64
	err  error
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, b.err
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1] // one byte more tells a body of exactly the limit from a longer one
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return 0, b.err
	}
	return n, err
}

func (b *limitedBody) Close() error { return b.rc.Close() }

type errBody struct{ err error }

func (b errBody) Read([]byte) (int, error) { return 0, b.err }
func (b errBody) Close() error             { return nil }

// byteSize writes n in KiB or MiB when it is a whole number of them.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
