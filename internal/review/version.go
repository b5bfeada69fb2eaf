package review

import (
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/internal/protocol"
	"github.com/evanw/esbuild/pkg/api"
)

// Kinds of version, as Spec gives them.
const (
	KindGit     = "git"     // a revision of this repository, its compacteval pipe
	KindModule  = "module"  // a TypeScript module, run under Node after its types are removed
	KindScript  = "script"  // a JavaScript module, run under Node as it is
	KindCommand = "command" // a user's command that speaks the protocol
	KindText    = "text"    // an instruction text alone
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
}

// Version is one side of a review: a process that answers the reference protocol
// (docs/protocol.md) for one implementation of the compaction module, or an instruction
// text alone.
type Version struct {
	// Label is "base" or "head".
	Label string `json:"label"`
	// Kind is one of KindGit, KindModule, KindScript, KindCommand and KindText.
	Kind string `json:"kind"`
	// Desc says what the version is: the revision and its commit, the file, the command.
	Desc string `json:"desc"`
	// Profiles are the extractor profiles the version answers extract requests with, as it
	// reports them; empty for an instruction text or a process without extract.
	Profiles []string `json:"profiles"`

	client *protocol.Client
	text   string // KindText: the instruction
	// named reports whether extract requests name their profile: compacteval pipe knows
	// several, a module only its extractSummary.
	named   bool
	cleanup []func() error
}

// ErrNoNode is returned when a module is to be run and node is not on PATH.
var ErrNoNode = errors.New("node is not on PATH")

// Open opens base and head. A revision given for both sides that names the same commit is
// built once. On error, whatever was opened is closed again.
func Open(base, head Spec, opt OpenOptions) (b, h *Version, err error) {
	for _, s := range []struct {
		label string
		spec  Spec
	}{{"base", base}, {"head", head}} {
		if n := s.spec.count(); n != 1 {
			return nil, nil, fmt.Errorf("%s: want exactly one of a revision, a file and a command, got %d", s.label, n)
		}
	}
	builds := &revBuilds{dir: opt.Dir, log: opt.Log, bins: map[string]string{}}
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
	switch {
	case s.Rev != "":
		bin, desc, err := builds.build(s.Rev)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", label, err)
		}
		return startVersion(label, KindGit, desc, []string{bin, "pipe"}, nil)
	case s.Command != "":
		return startVersion(label, KindCommand, "command "+s.Command, []string{"sh", "-c", s.Command}, nil)
	}
	return openFile(label, s.File)
}

// openFile opens a module or reads an instruction text.
func openFile(label, file string) (*Version, error) {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".ts", ".mts", ".cts":
		return openModule(label, file)
	case ".mjs", ".js", ".cjs":
		abs, err := filepath.Abs(file)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", label, err)
		}
		if _, err := os.Stat(abs); err != nil {
			return nil, fmt.Errorf("%s: %w", label, err)
		}
		return startRunner(label, KindScript, "script "+file, abs, nil)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	// An editor ends a file with a line break that the module's constant does not have.
	text := strings.TrimSuffix(strings.TrimSuffix(string(data), "\n"), "\r")
	return &Version{Label: label, Kind: KindText, Desc: "instruction text " + file, text: text, Profiles: []string{}}, nil
}

// openModule removes the types of a TypeScript module with esbuild and runs the result
// under Node. The module is moved to a temporary folder, so it must not import its
// neighbours by relative path (run it with a command instead).
func openModule(label, file string) (*Version, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	res := api.Transform(string(src), api.TransformOptions{
		Loader: api.LoaderTS, Format: api.FormatESModule, Target: api.ES2022, Sourcefile: file,
	})
	if len(res.Errors) > 0 {
		var msgs []string
		for _, m := range res.Errors {
			if l := m.Location; l != nil {
				msgs = append(msgs, fmt.Sprintf("%s:%d:%d: %s", l.File, l.Line, l.Column+1, m.Text))
			} else {
				msgs = append(msgs, m.Text)
			}
		}
		return nil, fmt.Errorf("%s: remove types from %s: %s", label, file, strings.Join(msgs, "; "))
	}
	dir, err := os.MkdirTemp("", "compacteval-review-")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	cleanup := func() error { return os.RemoveAll(dir) }
	module := filepath.Join(dir, "module.mjs")
	if err := os.WriteFile(module, res.Code, 0o644); err != nil {
		cleanup()
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	return startRunner(label, KindModule, "module "+file+" (types removed by esbuild)", module, cleanup)
}

//go:embed runner.mjs
var runnerScript []byte

// startRunner runs module under Node with runner.mjs, which answers the protocol with the
// module's exports.
func startRunner(label, kind, desc, module string, cleanup func() error) (*Version, error) {
	fail := func(err error) (*Version, error) {
		if cleanup != nil {
			cleanup()
		}
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return fail(fmt.Errorf("%w: a module is run with node; give a command that speaks the protocol instead", ErrNoNode))
	}
	dir, err := os.MkdirTemp("", "compacteval-runner-")
	if err != nil {
		return fail(err)
	}
	prev := cleanup
	cleanup = func() error {
		err := os.RemoveAll(dir)
		if prev != nil {
			err = errors.Join(err, prev())
		}
		return err
	}
	runner := filepath.Join(dir, "runner.mjs")
	if err := os.WriteFile(runner, runnerScript, 0o644); err != nil {
		return fail(err)
	}
	return startVersion(label, kind, desc, []string{node, runner, module}, cleanup)
}

// startVersion starts argv, asks it which profiles it extracts with, and returns the
// version; cleanup runs when the version is closed, or now if it does not start.
func startVersion(label, kind, desc string, argv []string, cleanup func() error) (*Version, error) {
	v := &Version{Label: label, Kind: kind, Desc: desc}
	if cleanup != nil {
		v.cleanup = append(v.cleanup, cleanup)
	}
	c, err := protocol.Start(argv)
	if err != nil {
		v.Close()
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	v.client = c
	if err := v.probe(); err != nil {
		v.Close()
		return nil, fmt.Errorf("%s (%s): %w", label, desc, err)
	}
	return v, nil
}

// probeProfile is a profile name no version has: compacteval pipe answers it with the
// list of profiles it has, a module ignores it.
const probeProfile = "compacteval-review-probe"

var haveProfiles = regexp.MustCompile(`unknown profile .*\(have ([^()]*)\)$`)

// probe learns the version's extractor profiles from its answer to an extract request with
// an unknown profile: compacteval pipe lists its profiles in the error, the reference and
// a module answer with their one extractor, which is named seed.
func (v *Version) probe() error {
	resp, err := v.client.Do(protocol.Request{Op: "extract", Text: protocol.Str(""), Profile: protocol.Str(probeProfile)})
	if err != nil {
		return fmt.Errorf("does not answer the protocol: %w", err)
	}
	switch {
	case resp.Error == nil && resp.HasSummary:
		v.Profiles = []string{"seed"}
	case resp.Error != nil:
		if m := haveProfiles.FindStringSubmatch(*resp.Error); m != nil {
			v.Profiles, v.named = strings.Split(m[1], ", "), true
		} else {
			v.Profiles = []string{} // no extract: instruction requests only
		}
	default:
		return fmt.Errorf("answers an extract request without a summary field")
	}
	return nil
}

// Close stops the version's process and removes its temporary files. Close of a nil
// version does nothing.
func (v *Version) Close() error {
	if v == nil {
		return nil
	}
	var errs []error
	if v.client != nil {
		errs = append(errs, v.client.Close())
		v.client = nil
	}
	for _, f := range v.cleanup {
		errs = append(errs, f())
	}
	v.cleanup = nil
	return errors.Join(errs...)
}

// Instruction returns the version's instruction text: COMPACTION_INSTRUCTION, or the text
// of an instruction file.
func (v *Version) Instruction() (string, error) {
	if v.Kind == KindText {
		return v.text, nil
	}
	resp, err := v.client.Do(protocol.Request{Op: "constants"})
	if err != nil {
		return "", err
	}
	if resp.Error != nil {
		return "", errors.New(*resp.Error)
	}
	if resp.Instruction == nil {
		return "", errors.New("the constants answer has no instruction")
	}
	return *resp.Instruction, nil
}

// Render returns the texts of requests, each an instruction, keptTailNote or continuation
// request, answered by the version. An instruction text renders instruction requests with
// compact.BuildInstructionWith around it and has no other texts: for those, and for
// requests the version answers with an error, ok[i] is false and texts[i] says why.
func (v *Version) Render(reqs []protocol.Request) (texts []string, ok []bool, err error) {
	texts, ok = make([]string, len(reqs)), make([]bool, len(reqs))
	if v.Kind == KindText {
		for i, r := range reqs {
			if r.Op != "instruction" {
				texts[i] = "an instruction text has no " + r.Op
				continue
			}
			texts[i], ok[i] = compact.BuildInstructionWith(v.text, optionsOf(r)), true
		}
		return texts, ok, nil
	}
	resps, err := v.client.DoAll(reqs)
	if err != nil {
		return nil, nil, err
	}
	for i, r := range resps {
		switch {
		case r.Error != nil:
			texts[i] = *r.Error
		case r.Text == nil:
			texts[i] = "the answer has no text"
		default:
			texts[i], ok[i] = *r.Text, true
		}
	}
	return texts, ok, nil
}

// optionsOf returns the compact options of an instruction request.
func optionsOf(r protocol.Request) compact.Options {
	opts := compact.Options{Reason: compact.Reason(deref(r.Reason))}
	opts.CustomInstructions = deref(r.CustomInstructions)
	if kt := r.KeptTail; kt != nil {
		if kt.Count != nil {
			opts.KeptTail.Count = *kt.Count
		}
		opts.KeptTail.Opening = deref(kt.Opening)
	}
	return opts
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
