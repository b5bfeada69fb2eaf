package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/compacteval/compacteval/internal/pipeline"
)

// progress shows the stages of a command on stderr with their elapsed time. On a terminal
// one live line is redrawn (at most five times a second, and on its own so that the time
// moves during a stage that reports no step); otherwise, and on a terminal too when a
// stage ends, plain lines: "compacteval run: drift: 4100/4100 samples, 3.1s", one when a
// stage ends and, during a long one, at most one every progressEvery.
//
// Several tracks (review's base and head) may run at once; each has its own stage.
type progress struct {
	name     string // the command
	w        io.Writer
	terminal bool
	every    time.Duration // plain: the least time between two lines of a stage; 0 none
	now      func() time.Time

	mu       sync.Mutex
	tracks   []*track // in the order they started
	drawn    bool     // a live line is on the terminal
	partial  bool     // the writer's last write did not end a line: no live line after it
	last     time.Time
	stop     chan struct{}
	stopOnce sync.Once
	wg       sync.WaitGroup
}

type track struct {
	name         string // "" for a command with one
	stage        string
	done, total  int
	start, lastL time.Time // the stage's start, its last plain line
	ended        bool
}

// progressEvery is the plain lines' interval during a long stage; the environment variable
// COMPACTEVAL_PROGRESS_EVERY (a duration, 0 for none) overrides it, as the CLI's tests do
// so that a slow machine does not add lines to the outputs they compare.
const progressEvery = 2 * time.Second

// redraw is the live line's interval.
const redraw = 200 * time.Millisecond

func newProgress(name string, w io.Writer) *progress {
	p := &progress{name: name, w: w, every: progressEvery, now: time.Now, stop: make(chan struct{})}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.terminal = true
		}
	}
	if v, ok := os.LookupEnv("COMPACTEVAL_PROGRESS_EVERY"); ok {
		if d, err := time.ParseDuration(v); err == nil && d >= 0 {
			p.every = d
		}
	}
	tick := p.every
	if p.terminal {
		tick = redraw
	}
	if tick > 0 {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			t := time.NewTicker(tick)
			defer t.Stop()
			for {
				select {
				case <-p.stop:
					return
				case <-t.C:
					p.tick()
				}
			}
		}()
	}
	return p
}

// update is the pipeline's Progress for a command with one track.
func (p *progress) update(stage string, done, total int) { p.step("", stage, done, total) }

// track returns the Progress of one of several tracks that run at once.
func (p *progress) track(name string) func(stage string, done, total int) {
	return func(stage string, done, total int) { p.step(name, stage, done, total) }
}

func (p *progress) step(name, stage string, done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	var t *track
	for _, x := range p.tracks {
		if x.name == name {
			t = x
		}
	}
	if t == nil {
		t = &track{name: name}
		p.tracks = append(p.tracks, t)
	}
	if t.stage != stage {
		if t.stage != "" && !t.ended {
			p.line(t, now)
		}
		t.stage, t.start, t.lastL, t.ended = stage, now, now, false
	} else if t.ended {
		return // a late step of a stage that ended
	}
	t.done, t.total = done, total
	if done >= total { // the stage's end: its line now, with its time
		p.line(t, now)
		t.ended = true
		p.draw(now)
		return
	}
	if p.terminal && now.Sub(p.last) >= redraw {
		p.draw(now)
	}
}

// tick redraws the live line, or writes a plain line for each stage running for longer
// than every since its last.
func (p *progress) tick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if p.terminal {
		if now.Sub(p.last) >= redraw/2 { // a step may just have drawn it
			p.draw(now)
		}
		return
	}
	for _, t := range p.tracks {
		if !t.ended && t.stage != "" && p.every > 0 && now.Sub(t.lastL) >= p.every {
			p.line(t, now)
		}
	}
}

// line writes t's state as a plain line (over the live line on a terminal).
func (p *progress) line(t *track, now time.Time) {
	p.clear()
	fmt.Fprintf(p.w, "compacteval %s: %s\n", p.name, t.status(now))
	t.lastL = now
}

func (t *track) status(now time.Time) string {
	who := ""
	if t.name != "" {
		who = t.name + ": "
	}
	return fmt.Sprintf("%s%s: %d/%d %s, %.1fs", who, t.stage, t.done, t.total, stageUnit(t.stage), now.Sub(t.start).Seconds())
}

// draw redraws the live line: every track's stage with its count and time.
func (p *progress) draw(now time.Time) {
	if !p.terminal || p.partial {
		return
	}
	var parts []string
	for _, t := range p.tracks {
		if !t.ended && t.stage != "" {
			parts = append(parts, t.status(now))
		}
	}
	if len(parts) == 0 {
		return
	}
	p.last = now
	p.clear()
	fmt.Fprintf(p.w, "compacteval %s: %s", p.name, strings.Join(parts, "; "))
	p.drawn = true
}

func (p *progress) clear() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drawn = false
	}
}

// writer returns the writer of the command's other stderr lines (a log, a warning) while
// the progress is shown: on a terminal each write first clears the live line, and a write
// that ends a line redraws it, so that neither lands inside the other. Elsewhere, and
// after done, it writes through unchanged; it is safe to call from any goroutine.
func (p *progress) writer() io.Writer { return progressWriter{p} }

type progressWriter struct{ p *progress }

func (w progressWriter) Write(b []byte) (int, error) {
	p := w.p
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	n, err := p.w.Write(b)
	if len(b) > 0 {
		p.partial = b[len(b)-1] != '\n'
	}
	p.draw(p.now())
	return n, err
}

// end writes the last line of a track's stage (review ends one side before the other).
func (p *progress) end(name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, t := range p.tracks {
		if t.name == name && !t.ended && t.stage != "" {
			p.line(t, p.now())
			t.ended = true
		}
	}
}

// done writes the last line of every stage still running and stops the redraws; a second
// call does nothing.
func (p *progress) done() {
	p.stopOnce.Do(func() { close(p.stop) })
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	for _, t := range p.tracks {
		if !t.ended && t.stage != "" {
			p.line(t, now)
			t.ended = true
		}
	}
	p.clear()
}

// stageUnit is what a stage's steps count (pipeline.Options.Progress).
func stageUnit(stage string) string {
	switch stage {
	case pipeline.StageExtract, pipeline.StageDriftSend:
		return "answers"
	case pipeline.StageDrift:
		return "samples"
	case pipeline.StageEval:
		return "cases"
	case pipeline.StageFuzz:
		return "extractors"
	case "build":
		return "builds"
	}
	return "steps"
}
