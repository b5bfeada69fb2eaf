// Package fuzzrun runs compacteval fuzz on the extractors of the command line: it gives
// package fuzz an extractor.Extractor (a built-in profile, or a module or command behind
// docs/protocol.md) as a fuzz.Target, and writes the failures found as inbox cases.
package fuzzrun

import (
	"context"
	"errors"
	"time"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/fuzz"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/internal/proccpu"
	"github.com/compacteval/compacteval/internal/protocol"
)

// Run checks ex as fuzz.Run does, until ctx is done: then the batch being sent is the
// last, and the error wraps context.Cause(ctx).
func Run(ctx context.Context, ex *extractor.Extractor, cases []*corpus.Case, opt fuzz.Options) (*fuzz.Result, error) {
	t := Target(ex)
	extractAll := t.ExtractAll
	t.ExtractAll = func(texts []string) ([]compact.Extraction, error) {
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		return extractAll(texts)
	}
	return fuzz.Run(t, cases, opt)
}

// Target is ex as a fuzz.Target: its batches are pipelined to a process, its answers
// forgotten between batches, and a protocol timeout (the process killed for not answering)
// ends the time check with a note.
func Target(ex *extractor.Extractor) fuzz.Target {
	return fuzz.Target{
		Name:       ex.Name,
		ExtractAll: ex.ExtractAll,
		Forget:     ex.Forget,
		TimedOut:   func(err error) bool { return errors.Is(err, protocol.ErrTimeout) },
		CPU:        cpuOf(ex),
	}
}

// cpuOf returns the CPU clock of ex: its process tree's for a module or command, this
// process's for a built-in.
func cpuOf(ex *extractor.Extractor) func() (time.Duration, bool) {
	if !ex.External() {
		return proccpu.SelfCPU
	}
	return func() (time.Duration, bool) {
		pid := ex.Pid()
		if pid == 0 {
			return 0, false
		}
		return proccpu.TreeCPU(pid)
	}
}
