package review

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/compacteval/compacteval/internal/extractor"
)

// Kinds of version, as Spec gives them.
const (
	KindGit     = extractor.KindGit     // a revision of this repository, its compacteval pipe
	KindModule  = extractor.KindModule  // a TypeScript or JavaScript module, run under Node
	KindCommand = extractor.KindCommand // a user's command that speaks the protocol
	KindText    = extractor.KindText    // an instruction text alone
)

// Spec says where a version comes from: exactly one of Rev, File and Command.
type Spec struct {
	// Rev is a git revision of the repository around OpenOptions.Dir.
	Rev string
	// File is a TypeScript module (.ts, .mts, .cts), a JavaScript module (.mjs, .js, .cjs)
	// or, with any other extension, an instruction text.
	File string
	// Command is run with sh -c and must answer the protocol on stdin and stdout.
	Command string
}

func (s Spec) count() int {
	n := 0
	for _, v := range []string{s.Rev, s.File, s.Command} {
		if v != "" {
			n++
		}
	}
	return n
}

// OpenOptions tune Open.
type OpenOptions struct {
	// Dir is a folder of the git repository whose revisions Spec.Rev names; "" is ".".
	Dir string
	// Log receives progress lines (building a revision); nil discards them.
	Log io.Writer
	// Timeout bounds the wait for each answer of a version's process (0: the default).
	Timeout time.Duration
	// Progress, when set, is told when the build of a revision starts (0 of 1) and ends,
	// on the track "build REV".
	Progress func(track, stage string, done, total int)
}

// Version is one side of a review: an implementation of the compaction module
// (extractor.Impl) with its label.
type Version struct {
	// Label is "base" or "head".
	Label string `json:"label"`
	*extractor.Impl

	// rev is the commit of a version built at a git revision; nil for the other kinds.
	rev *revision
}

// Open opens base and head. A revision given for both sides that names the same commit is
// built once. On error, whatever was opened is closed again. When ctx is done a build in
// progress is stopped and the versions' processes are killed.
func Open(ctx context.Context, base, head Spec, opt OpenOptions) (b, h *Version, err error) {
	for _, s := range []struct {
		label string
		spec  Spec
	}{{"base", base}, {"head", head}} {
		if n := s.spec.count(); n != 1 {
			return nil, nil, fmt.Errorf("%s: want exactly one of a revision, a file and a command, got %d", s.label, n)
		}
	}
	builds := &revBuilds{ctx: ctx, dir: opt.Dir, log: opt.Log, progress: opt.Progress, bins: map[string][]string{}, opt: extractor.OpenOptions{Timeout: opt.Timeout}}
	// A running binary can be removed (on the systems sh runs on): the builds go when both
	// versions have started, or failed to.
	defer builds.close()
	defer func() {
		if err != nil {
			b.Close()
			h.Close()
		}
	}()
	if b, err = open("base", base, builds); err != nil {
		return nil, nil, err
	}
	if h, err = open("head", head, builds); err != nil {
		return nil, nil, err
	}
	return b, h, nil
}

func open(label string, s Spec, builds *revBuilds) (*Version, error) {
	var im *extractor.Impl
	var rev *revision
	var err error
	switch {
	case s.Rev != "":
		var argv []string
		var desc string
		var rv revision
		if argv, desc, rv, err = builds.build(s.Rev); err == nil {
			rev = &rv
			im, err = extractor.OpenArgv(builds.ctx, extractor.KindGit, desc, argv, builds.opt)
		}
	case s.Command != "":
		im, err = extractor.OpenCommand(builds.ctx, s.Command, builds.opt)
	default:
		switch strings.ToLower(filepath.Ext(s.File)) {
		case ".ts", ".mts", ".cts", ".mjs", ".js", ".cjs":
			im, err = extractor.OpenModule(builds.ctx, s.File, builds.opt)
		default:
			im, err = extractor.OpenText(s.File)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	return &Version{Label: label, Impl: im, rev: rev}, nil
}

// Close stops the version's process and removes its temporary files. Close of a nil
// version does nothing.
func (v *Version) Close() error {
	if v == nil {
		return nil
	}
	return v.Impl.Close()
}
