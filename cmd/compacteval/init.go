package main

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/compacteval/compacteval/internal/atomicfile"
	"github.com/compacteval/compacteval/internal/buildinfo"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/internal/gate"
	"github.com/compacteval/compacteval/internal/pipeline"
	"github.com/compacteval/compacteval/report"
)

const initUsage = `Usage: compacteval init [-extractor X]... [-corpus DIR|embedded]... [-config FILE]
         [-workflow FILE] [-baseline FILE]

Writes what a repository needs to gate its own extractor and prompt with compacteval:

  gate.yaml                              the gate's thresholds, with comments
  .github/workflows/compacteval.yml      a GitHub Actions workflow: run, gate, upload the
                                         reports, comment on the pull request
  .compacteval/baseline.json             the first baseline: a run of the extractors on the
                                         corpus, blessed

A file that is already there is never overwritten: init says it kept it and goes on. Commit
the three files; after an intended change, bless a new baseline with
compacteval run ... && compacteval gate -bless -baseline .compacteval/baseline.json.

%s
Exit codes: 0 every file written or kept; 1 the first run found problems (no baseline is
written); 2 usage or operational error.

Examples:
  compacteval init -extractor module:src/compaction.ts
  compacteval init -extractor cmd:'python3 tools/extract.py' -corpus embedded -corpus tests/compaction-cases
`

//go:embed templates/gate.yaml
var gateTemplate []byte

//go:embed templates/workflow.yml
var workflowTemplate string

func runInit(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("init", fmt.Sprintf(initUsage, inputsHelp()), stderr)
	var in inputs
	in.register(fs)
	config := fs.String("config", "gate.yaml", "the gate config to write")
	workflow := fs.String("workflow", filepath.Join(".github", "workflows", "compacteval.yml"), "the workflow to write")
	baseline := fs.String("baseline", filepath.Join(".compacteval", "baseline.json"), "the baseline to write")
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "compacteval init: unexpected argument %q\n", fs.Arg(0))
		return exitError
	}
	if _, err := gate.ParseConfig(*config, gateTemplate); err != nil {
		fmt.Fprintf(stderr, "compacteval init: the gate.yaml template: %v\n", err) // a broken build
		return exitError
	}
	version := buildinfo.Read()
	flow, err := workflowText(in, *baseline, *config, version)
	if err != nil {
		fmt.Fprintf(stderr, "compacteval init: %v\n", err)
		return exitError
	}
	if !version.IsRelease() {
		fmt.Fprintf(stderr, "compacteval init: a development build (%s) pins the workflow's action to %s: replace it with a release tag\n", version.Version(), placeholder)
	}
	// The run comes first: a run that fails or finds problems writes nothing, so that a
	// second init after the fix starts from the same empty folder.
	var r *report.Report
	var baselineData []byte
	if _, err := os.Stat(*baseline); err != nil {
		exs, c, ok := in.open(ctx, "init", stderr)
		if !ok {
			return exitError
		}
		defer extractor.CloseAll(exs)
		p := newProgress("init", stderr)
		r, err = pipeline.Run(ctx, pipeline.Options{Corpus: c, Extractors: exs, DriftSeed: 1, DriftN: defaultDriftN, Progress: p.update})
		p.done()
		if err != nil {
			fmt.Fprintf(stderr, "compacteval init: %v; nothing written\n", err)
			return exitError
		}
		if len(r.Problems) > 0 {
			fmt.Fprintf(stderr, "compacteval init: the run found %s (run compacteval run to see them); nothing written\n", plural(len(r.Problems), "problem"))
			return exitProblem
		}
		if baselineData, err = report.Marshal(gate.Slim(r)); err != nil {
			fmt.Fprintf(stderr, "compacteval init: %v\n", err)
			return exitError
		}
	}
	for _, f := range []struct {
		path string
		data []byte
	}{{*config, gateTemplate}, {*workflow, flow}} {
		if code := createFile(f.path, f.data, stdout, stderr); code != exitOK {
			return code
		}
	}
	if r == nil {
		fmt.Fprintf(stdout, "kept %s: it exists\n", *baseline)
		return exitOK
	}
	if code := createFile(*baseline, baselineData, stdout, stderr); code != exitOK {
		return code
	}
	var names []string
	for _, e := range r.Extractors {
		names = append(names, e.Name)
	}
	fmt.Fprintf(stdout, "\nthe baseline: %s from %s, extractors %s\n", plural(r.Corpus.Cases, "case"), r.Corpus.Dir, strings.Join(names, ", "))
	for _, e := range r.Extractors {
		fmt.Fprintf(stdout, "  %-24s %d/%d intended, drift exact %.1f%%\n", e.Name, e.Intended, e.Cases, 100*e.DriftExact)
	}
	return exitOK
}

// defaultDriftN is run's -drift-n default: init's baseline must be made as run makes the
// runs that the gate compares with it.
const defaultDriftN = 100

// createFile writes path unless it exists, and says which.
func createFile(path string, data []byte, stdout, stderr io.Writer) int {
	switch err := atomicfile.Create(path, data, 0o644); {
	case errors.Is(err, atomicfile.ErrExists):
		fmt.Fprintf(stdout, "kept %s: it exists\n", path)
	case err != nil:
		fmt.Fprintf(stderr, "compacteval init: %v\n", err)
		return exitError
	default:
		fmt.Fprintf(stdout, "wrote %s\n", path)
	}
	return exitOK
}

// placeholder stands for the release in a workflow that a development build wrote: it is
// no tag, so the workflow fails at once, naming it, rather than running another version.
const placeholder = "vX.Y.Z"

// fullSHA is a whole commit id, which a uses: line may pin.
var fullSHA = regexp.MustCompile(`^[0-9a-f]{40}$`)

// workflowText fills the workflow template with the run's flags (plain replacement: the
// workflow's own ${{ }} expressions stay as they are). version pins the action; a
// version that is no release (a development build) writes the placeholder and a note.
func workflowText(in inputs, baseline, config string, version buildinfo.Info) ([]byte, error) {
	for _, v := range append(append([]string{}, in.extractors...), in.corpora...) {
		if strings.ContainsAny(v, "\r\n") || strings.TrimSpace(v) != v {
			return nil, fmt.Errorf("%q cannot be a line of the workflow: no line breaks, no leading or trailing spaces", v)
		}
	}
	// A release pins the action by its commit, the tag in a comment (as the checkout step
	// is pinned): a tag can be moved, a commit cannot. A release that does not know its
	// commit (go install of a module version) is pinned by its tag, and says how to pin it.
	tag, note := version.Module, ""
	ref := tag
	switch {
	case !version.IsRelease():
		tag, ref = placeholder, placeholder
		note = "# NOTE: a development build of compacteval (" + version.Version() + ") wrote this workflow:\n" +
			"# replace " + placeholder + " below with a release's commit SHA and tag before committing it.\n"
	case fullSHA.MatchString(version.Revision) && !version.Modified:
		ref = version.Revision + " # " + version.Module
	default:
		note = "# NOTE: this build of compacteval does not know the commit of " + version.Module + ": pin the action\n" +
			"# by it (git ls-remote https://github.com/compacteval/compacteval " + version.Module + ").\n"
	}
	corpora := in.corpora
	if len(corpora) == 0 {
		corpora = []string{"embedded"}
	}
	lines := func(values []string) string {
		var b strings.Builder
		for _, v := range values {
			b.WriteString("            " + v + "\n")
		}
		return b.String()
	}
	return []byte(strings.NewReplacer("{{.Version}}", tag, "{{.Ref}}", ref, "{{.Note}}", note,
		"{{.Extractors}}", lines(in.extractors), "{{.Corpora}}", lines(corpora),
		"{{.Baseline}}", yamlScalar(baseline), "{{.Config}}", yamlScalar(config)).Replace(workflowTemplate)), nil
}

// yamlScalar quotes s for a YAML value when it holds anything but safe characters.
func yamlScalar(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
