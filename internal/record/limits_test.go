package record

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/compacteval/compacteval/internal/record/recordtest"
)

func TestResponseBodyIsBounded(t *testing.T) {
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			srv := recordtest.NewServer(t)
			srv.Script("m1", recordtest.Reply{Text: strings.Repeat("long answer ", 1000)})
			base := srv.URL
			if provider == OpenAI {
				base = srv.OpenAIURL()
			}
			p, err := New(Config{Provider: provider, BaseURL: base, Timeout: time.Minute, MaxResponseBytes: 4 << 10})
			if err != nil {
				t.Fatal(err)
			}
			req, _ := NewRequest(source(t), provider, "m1", Params{MaxTokens: 7}, "", 1)
			_, err = p.Send(context.Background(), req)
			var tl *BodyTooLargeError
			if !errors.As(err, &tl) || !errors.Is(err, ErrTooLarge) || tl.Limit != 4<<10 || tl.Method != "POST" || !strings.HasPrefix(tl.URL, srv.URL) {
				t.Fatalf("Send of a 12 KB answer with a 4 KiB bound = %v; want a *BodyTooLargeError naming the request", err)
			}
			if want := "is longer than 4 KiB"; !strings.Contains(err.Error(), want) {
				t.Errorf("error %q lacks %q", err, want)
			}
		})
	}
}

func TestBodyAtTheBoundIsRead(t *testing.T) {
	data := strings.Repeat("x", 100)
	b := &limitedBody{rc: nopCloser{strings.NewReader(data)}, left: 100, err: ErrTooLarge}
	got, err := readAll(b)
	if err != nil || got != data {
		t.Errorf("a body of exactly the bound = %d bytes, %v; want all of it", len(got), err)
	}
	b = &limitedBody{rc: nopCloser{strings.NewReader(data + "y")}, left: 100, err: ErrTooLarge}
	if _, err := readAll(b); !errors.Is(err, ErrTooLarge) {
		t.Errorf("a body one byte over the bound = %v; want ErrTooLarge", err)
	}
}

func TestCaseFileIsBounded(t *testing.T) {
	s := newSetup(t, OpenAI, "m1", 1)
	s.srv.Script("m1", recordtest.Reply{Text: wellFormed + strings.Repeat("\nmore text the model kept writing", 400)})
	s.rec.MaxCaseBytes = 8 << 10
	outs := s.rec.Run(context.Background(), s.jobs(t))
	var tl *CaseTooLargeError
	if len(outs) != 1 || !errors.As(outs[0].Err, &tl) || tl.Limit != 8<<10 || tl.ID != outs[0].Job.ID {
		t.Fatalf("Run with an 8 KiB case bound = %+v; want a *CaseTooLargeError naming the case", outs)
	}
	if _, err := os.Stat(outs[0].Job.Path); err == nil {
		t.Errorf("%s was written although over the bound", outs[0].Job.Path)
	}
	if !strings.Contains(outs[0].Err.Error(), "over the 8 KiB limit on a case file") {
		t.Errorf("error %q does not say the bound", outs[0].Err)
	}
}

type nopCloser struct{ *strings.Reader }

func (nopCloser) Close() error { return nil }

func readAll(b *limitedBody) (string, error) {
	var sb strings.Builder
	buf := make([]byte, 7)
	for {
		n, err := b.Read(buf)
		sb.Write(buf[:n])
		if err != nil {
			if errors.Is(err, io.EOF) {
				return sb.String(), nil
			}
			return sb.String(), err
		}
	}
}
