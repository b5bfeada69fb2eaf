package extractor

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/internal/infile"
	"github.com/compacteval/compacteval/internal/protocol"
	"github.com/compacteval/compacteval/internal/reap"
	"github.com/evanw/esbuild/pkg/api"
)

// Kinds of implementation.
const (
	KindBuiltin = "builtin" // compacteval's own Go extractors and instruction
	KindModule  = "module"  // a TypeScript or JavaScript module run under Node
	KindCommand = "command" // a process that speaks docs/protocol.md
	KindGit     = "git"     // compacteval built at a git revision (internal/review builds it)
	KindText    = "text"    // an instruction text alone
)

// Impl is one implementation of the compaction module: the built-in Go port, a process that
// answers the reference protocol (a module under Node, a user's command, compacteval pipe of
// another revision), or an instruction text alone. It answers extract requests with one or
// more profiles, and instruction requests where it has an instruction.
type Impl struct {
	// Kind is one of the Kind constants.
	Kind string `json:"kind"`
	// Desc says what it is: the file, the command, the revision and its commit.
	Desc string `json:"desc"`
	// Profiles are the extractor profiles it answers extract requests with, as it reports
	// them; empty for an instruction text or a process without extract.
	Profiles []string `json:"profiles"`

	client *protocol.Client
	proc   *protocol.Client // client, kept after Close for Kill
	text   string           // KindText: the instruction
	// named reports whether extract requests name their profile: compacteval pipe knows
	// several, a module only its extractSummary.
	named   bool
	cleanup []func() error
}

// OpenOptions tune how an implementation is started.
type OpenOptions struct {
	// Dir is the working folder of a command; "" is the current one.
	Dir string
	// Timeout bounds the wait for each answer of a process (0: DefaultTimeout). A process
	// that does not answer in time is killed and its extractor fails.
	Timeout time.Duration
}

// DefaultTimeout is the wait for one answer of an external extractor when none is given.
const DefaultTimeout = 60 * time.Second

func (o OpenOptions) timeout() time.Duration {
	if o.Timeout > 0 {
		return o.Timeout
	}
	return DefaultTimeout
}

// ErrNoNode is returned when a module is to be run and node is not on PATH.
var ErrNoNode = errors.New("node is not on PATH")

// BuiltinImpl returns compacteval's own implementation: every built-in profile and the seed
// instruction.
func BuiltinImpl() *Impl {
	return &Impl{Kind: KindBuiltin, Desc: "compacteval's Go port and profiles", Profiles: compact.ExtractorNames()}
}

// OpenModule runs a TypeScript or JavaScript module under Node with a runner that answers
// the protocol with its exports (extractSummary, buildCompactionInstruction, keptTailNote,
// continuationSummary, COMPACTION_INSTRUCTION). esbuild bundles the module with what it
// imports (files beside it, packages it finds) and removes TypeScript's types. When ctx is
// done the process is killed (Kill).
func OpenModule(ctx context.Context, file string, opt OpenOptions) (*Impl, error) {
	if _, err := os.Stat(file); err != nil {
		return nil, fmt.Errorf("module %s: %w", file, err)
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("module %s: %w: a module is run with node; give a command that speaks the protocol instead (cmd:COMMAND)", file, ErrNoNode)
	}
	res := api.Build(api.BuildOptions{
		EntryPoints: []string{abs}, Bundle: true, Write: false, Outfile: "module.mjs",
		Platform: api.PlatformNode, Format: api.FormatESModule, Target: api.ES2022,
		LogLevel: api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		return nil, fmt.Errorf("module %s: bundle with esbuild: %s", file, esbuildErrors(res.Errors))
	}
	if len(res.OutputFiles) != 1 {
		return nil, fmt.Errorf("module %s: esbuild wrote %d files, want 1", file, len(res.OutputFiles))
	}
	// A folder a killed run left (its owner gone) goes now: it holds the user's bundled code.
	dir, err := reap.TempDir("compacteval-module-")
	if err != nil {
		return nil, err
	}
	cleanup := func() error { return os.RemoveAll(dir) }
	module, runner := filepath.Join(dir, "module.mjs"), filepath.Join(dir, "runner.mjs")
	if err := errors.Join(os.WriteFile(module, res.OutputFiles[0].Contents, 0o644), os.WriteFile(runner, runnerScript, 0o644)); err != nil {
		cleanup()
		return nil, err
	}
	return start(ctx, KindModule, "module "+file, []string{node, runner, module}, opt, cleanup)
}

func esbuildErrors(ms []api.Message) string {
	var out []string
	for _, m := range ms {
		if l := m.Location; l != nil {
			out = append(out, fmt.Sprintf("%s:%d:%d: %s", l.File, l.Line, l.Column+1, m.Text))
		} else {
			out = append(out, m.Text)
		}
	}
	return strings.Join(out, "; ")
}

//go:embed runner.mjs
var runnerScript []byte

// OpenCommand runs command with sh -c; it must answer the protocol on stdin and stdout.
// When ctx is done the process is killed (Kill).
func OpenCommand(ctx context.Context, command string, opt OpenOptions) (*Impl, error) {
	return start(ctx, KindCommand, "command "+command, []string{"sh", "-c", command}, opt, nil)
}

// OpenArgv runs argv, which answers the protocol, as an implementation of kind with desc
// (internal/review runs compacteval pipe of a git revision this way). When ctx is done the
// process is killed (Kill).
func OpenArgv(ctx context.Context, kind, desc string, argv []string, opt OpenOptions) (*Impl, error) {
	return start(ctx, kind, desc, argv, opt, nil)
}

// OpenText reads an instruction text: an implementation with an instruction and no
// extractor. An editor's final line break is not part of the text.
func OpenText(file string) (*Impl, error) {
	data, err := infile.Read(file, infile.MaxTextBytes, "an instruction text")
	if err != nil {
		return nil, fmt.Errorf("instruction text: %w", err)
	}
	text := strings.TrimSuffix(strings.TrimSuffix(string(data), "\n"), "\r")
	return &Impl{Kind: KindText, Desc: "instruction text " + file, text: text, Profiles: []string{}}, nil
}

// start starts argv, asks it which profiles it extracts with, and returns the
// implementation; cleanup runs when it is closed, or now if it does not start.
func start(ctx context.Context, kind, desc string, argv []string, opt OpenOptions, cleanup func() error) (*Impl, error) {
	im := &Impl{Kind: kind, Desc: desc}
	if cleanup != nil {
		im.cleanup = append(im.cleanup, cleanup)
	}
	// compacteval pipe of a revision before request ids answers in order without them; a
	// module's runner is this binary's own runner.mjs, which reads texts as bytes.
	c, err := protocol.StartWith(ctx, argv, protocol.StartOptions{Dir: opt.Dir, Timeout: opt.timeout(), OrderOnly: kind == KindGit, TextBytes: kind == KindModule})
	if err != nil {
		im.Close()
		return nil, err
	}
	im.client, im.proc = c, c
	if err := im.probe(); err != nil {
		im.Close()
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%s: stopped before it answered: %w", desc, context.Cause(ctx))
		}
		return nil, fmt.Errorf("%s: %w", desc, err)
	}
	return im, nil
}

// probeProfile is a profile name no implementation has: compacteval pipe answers it with
// the list of profiles it has, a module ignores it.
const probeProfile = "compacteval-probe"

var haveProfiles = regexp.MustCompile(`unknown profile .*\(have ([^()]*)\)$`)

// noExtract matches the answers that say there is no extractor at all: a module without
// extractSummary (runner.mjs), a process that knows no extract op.
var noExtract = regexp.MustCompile(`does not export extractSummary|unknown op`)

// probe learns the profiles from the answer to an extract request with an unknown profile:
// compacteval pipe lists its profiles in the error, the reference and a module answer with
// their one extractor, which is named seed.
func (im *Impl) probe() error {
	resp, err := im.client.Do(protocol.Request{Op: "extract", Text: protocol.Str(""), Profile: protocol.Str(probeProfile)})
	if err != nil {
		return fmt.Errorf("does not answer the protocol: %w", err)
	}
	switch {
	case resp.Error == nil && resp.HasSummary:
		im.Profiles = []string{"seed"}
	case resp.Error != nil:
		switch m := haveProfiles.FindStringSubmatch(*resp.Error); {
		case m != nil:
			im.Profiles, im.named = strings.Split(m[1], ", "), true
		case noExtract.MatchString(*resp.Error):
			im.Profiles = []string{} // instruction requests only
		default:
			// It has an extractor, and the extractor fails: that side fails, it is never
			// taken for one without an extractor (which a review would not compare).
			return fmt.Errorf("its extractor answered an empty text with an error: %s", *resp.Error)
		}
	default:
		return fmt.Errorf("answers an extract request without a summary field")
	}
	return nil
}

// Close stops the process and removes its temporary files. Close of a nil Impl does
// nothing.
func (im *Impl) Close() error {
	if im == nil {
		return nil
	}
	var errs []error
	if im.client != nil {
		errs = append(errs, im.client.Close())
		im.client = nil
	}
	for _, f := range im.cleanup {
		errs = append(errs, f())
	}
	im.cleanup = nil
	return errors.Join(errs...)
}

// Instruction returns the instruction text: COMPACTION_INSTRUCTION of a process, the text
// of an instruction file, or compact.Instruction for the built-in.
func (im *Impl) Instruction() (string, error) {
	switch im.Kind {
	case KindText:
		return im.text, nil
	case KindBuiltin:
		return compact.Instruction, nil
	}
	resp, err := im.client.Do(protocol.Request{Op: "constants"})
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
// request. An instruction text renders instruction requests with compact.BuildInstructionWith
// around it and has no other texts: for those, and for requests answered with an error,
// ok[i] is false and texts[i] says why.
func (im *Impl) Render(reqs []protocol.Request) (texts []string, ok []bool, err error) {
	texts, ok = make([]string, len(reqs)), make([]bool, len(reqs))
	switch im.Kind {
	case KindText:
		for i, r := range reqs {
			if r.Op != "instruction" {
				texts[i] = "an instruction text has no " + r.Op
				continue
			}
			texts[i], ok[i] = compact.BuildInstructionWith(im.text, OptionsOf(r)), true
		}
		return texts, ok, nil
	case KindBuiltin:
		for i, r := range reqs {
			resp := protocol.AnswerRequest(r)
			texts[i], ok[i] = renderText(resp)
		}
		return texts, ok, nil
	}
	resps, err := im.client.DoAll(reqs)
	if err != nil {
		return nil, nil, err
	}
	for i, r := range resps {
		texts[i], ok[i] = renderText(r)
	}
	return texts, ok, nil
}

func renderText(r protocol.Response) (string, bool) {
	switch {
	case r.Error != nil:
		return *r.Error, false
	case r.Text == nil:
		return "the answer has no text", false
	}
	return *r.Text, true
}

// OptionsOf returns the compact options of an instruction request.
func OptionsOf(r protocol.Request) compact.Options {
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

// Kill ends the implementation's process group at once, from any goroutine: a request
// being answered fails, and Close still waits for the process and removes the temporary
// files. Kill of an implementation without a process, or closed, does nothing.
func (im *Impl) Kill() {
	if im != nil && im.proc != nil {
		im.proc.Kill()
	}
}

// OpenPrompt opens what a -prompt value names, for the instruction it builds:
//
//   - seed: compacteval's port of the seed module;
//   - module:FILE: a module's buildCompactionInstruction;
//   - cmd:COMMAND: a command's answers to instruction requests;
//   - text:FILE or FILE: an instruction text, framed as the seed frames its own.
func OpenPrompt(ctx context.Context, value string, opt OpenOptions) (*Impl, error) {
	kind, arg, _ := strings.Cut(value, ":")
	switch {
	case value == "seed":
		return BuiltinImpl(), nil
	case kind == "module" && arg != "":
		return OpenModule(ctx, arg, opt)
	case kind == "cmd" && arg != "":
		return OpenCommand(ctx, arg, opt)
	case kind == "text" && arg != "":
		return OpenText(arg)
	}
	return OpenText(value)
}

// Prompt returns the instruction the implementation builds for opts: its answer to an
// instruction request.
func (im *Impl) Prompt(opts compact.Options) (string, error) {
	req := protocol.Request{Op: "instruction", Reason: protocol.Str(string(opts.Reason))}
	if opts.CustomInstructions != "" {
		req.CustomInstructions = protocol.Str(opts.CustomInstructions)
	}
	if opts.KeptTail.Count > 0 {
		req.KeptTail = &protocol.KeptTail{Count: protocol.Int(opts.KeptTail.Count), Opening: protocol.Str(opts.KeptTail.Opening)}
	}
	texts, ok, err := im.Render([]protocol.Request{req})
	if err != nil {
		return "", err
	}
	if !ok[0] {
		return "", fmt.Errorf("%s builds no instruction: %s", im.Desc, texts[0])
	}
	return texts[0], nil
}
