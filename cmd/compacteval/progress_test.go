package main

import (
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fakeProgress is a progress on a clock the test moves, without its ticker (the test calls
// tick).
func fakeProgress(terminal bool) (*progress, *strings.Builder, *time.Time) {
	var b strings.Builder
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := &progress{name: "run", w: &b, terminal: terminal, every: 2 * time.Second, now: func() time.Time { return now }, stop: make(chan struct{})}
	return p, &b, &now
}

func TestProgressPlain(t *testing.T) {
	p, b, now := fakeProgress(false)
	at := func(d time.Duration) { *now = now.Add(d) }
	p.update("extract", 0, 4)
	p.update("extract", 4, 4)
	at(100 * time.Millisecond)
	p.update("drift", 0, 10)
	at(time.Second)
	p.tick() // 1s into drift: under every, no line
	p.update("drift", 3, 10)
	at(1500 * time.Millisecond)
	p.tick() // 2.5s: a line
	at(500 * time.Millisecond)
	p.tick() // 0.5s after it: none
	p.update("drift", 10, 10)
	p.update("eval", 0, 2)
	at(300 * time.Millisecond)
	p.update("eval", 2, 2)
	p.done()
	want := `compacteval run: extract: 4/4 answers, 0.0s
compacteval run: drift: 3/10 samples, 2.5s
compacteval run: drift: 10/10 samples, 3.0s
compacteval run: eval: 2/2 cases, 0.3s
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("plain progress mismatch (-want +got):\n%s", diff)
	}
}

func TestProgressTracks(t *testing.T) {
	p, b, now := fakeProgress(false)
	base, head := p.track("base"), p.track("head")
	base("extract", 0, 2)
	head("extract", 0, 2)
	*now = now.Add(time.Second)
	head("extract", 2, 2)
	head("drift", 0, 5)
	base("extract", 2, 2)
	p.end("base")
	*now = now.Add(time.Second)
	p.done()
	want := `compacteval run: head: extract: 2/2 answers, 1.0s
compacteval run: base: extract: 2/2 answers, 1.0s
compacteval run: head: drift: 0/5 samples, 1.0s
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("progress of two tracks mismatch (-want +got):\n%s", diff)
	}
}

func TestProgressTerminal(t *testing.T) {
	p, b, now := fakeProgress(true)
	p.update("drift", 0, 10)
	for i := 1; i <= 10; i++ {
		*now = now.Add(50 * time.Millisecond)
		p.update("drift", i, 10) // 20 steps a second: drawn at most every 200ms
	}
	p.update("fuzz", 0, 1)
	*now = now.Add(time.Second)
	p.tick() // the time moves on a stage without steps
	p.done()
	want := "compacteval run: drift: 0/10 samples, 0.0s" +
		"\r\x1b[Kcompacteval run: drift: 4/10 samples, 0.2s" +
		"\r\x1b[Kcompacteval run: drift: 8/10 samples, 0.4s" +
		"\r\x1b[Kcompacteval run: drift: 10/10 samples, 0.5s\n" + // the stage's end: a line that stays
		"compacteval run: fuzz: 0/1 extractors, 1.0s" + // drawn by the tick alone

		"\r\x1b[Kcompacteval run: fuzz: 0/1 extractors, 1.0s\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("terminal progress mismatch (-want +got):\n%s", diff)
	}
}

// TestProgressConcurrent steps one stage from several goroutines while the ticker writes
// lines (go test -race checks the locking); the stage's end is written once.
func TestProgressConcurrent(t *testing.T) {
	t.Setenv("COMPACTEVAL_PROGRESS_EVERY", "1ms")
	var b strings.Builder
	p := newProgress("run", &b)
	p.update("drift", 0, 4000)
	var wg sync.WaitGroup
	var done atomic.Int64
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				p.update("drift", int(done.Add(1)), 4000)
			}
		}()
	}
	wg.Wait()
	p.done()
	if n := strings.Count(b.String(), "drift: 4000/4000 samples"); n != 1 {
		t.Errorf("the stage's end line is written %d times, want once:\n%s", n, b.String())
	}
}

// TestProgressWriterTerminal: a log line written while the live line is shown clears it,
// and the live line comes back after the log line; a write that does not end its line
// keeps the live line away until one does. Log lines once landed inside the live line.
func TestProgressWriterTerminal(t *testing.T) {
	p, b, now := fakeProgress(true)
	log := p.writer()
	io.WriteString(log, "review: before any stage\n") // no live line to clear
	p.update("drift", 0, 10)
	*now = now.Add(300 * time.Millisecond)
	io.WriteString(log, "review: base: seed on 3 cases\n")
	io.WriteString(log, "review: part of a line")
	*now = now.Add(300 * time.Millisecond)
	p.tick() // no live line after a partial log line
	io.WriteString(log, ", its end\n")
	p.update("drift", 10, 10)
	io.WriteString(log, "review: after the stage\n") // nothing live to redraw
	p.done()
	io.WriteString(log, "compacteval review: after done\n")
	want := "review: before any stage\n" +
		"compacteval run: drift: 0/10 samples, 0.0s" +
		"\r\x1b[Kreview: base: seed on 3 cases\n" +
		"compacteval run: drift: 0/10 samples, 0.3s" +
		"\r\x1b[Kreview: part of a line" +
		", its end\n" +
		"compacteval run: drift: 0/10 samples, 0.6s" +
		"\r\x1b[Kcompacteval run: drift: 10/10 samples, 0.6s\n" +
		"review: after the stage\n" +
		"compacteval review: after done\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("log lines and the live line mismatch (-want +got):\n%s", diff)
	}
}

// TestProgressWriterPlain: off a terminal the writer writes its bytes unchanged, between
// the progress lines.
func TestProgressWriterPlain(t *testing.T) {
	p, b, now := fakeProgress(false)
	log := p.writer()
	p.update("drift", 0, 10)
	io.WriteString(log, "review: base: seed on 3 cases\n")
	*now = now.Add(3 * time.Second)
	p.tick()
	io.WriteString(log, "review: part")
	p.update("drift", 10, 10)
	p.done()
	want := "review: base: seed on 3 cases\n" +
		"compacteval run: drift: 0/10 samples, 3.0s\n" +
		"review: part" +
		"compacteval run: drift: 10/10 samples, 3.0s\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("log lines and plain progress mismatch (-want +got):\n%s", diff)
	}
}
