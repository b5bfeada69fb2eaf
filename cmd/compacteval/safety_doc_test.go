package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/internal/abtest"
	"github.com/compacteval/compacteval/internal/infile"
	"github.com/compacteval/compacteval/internal/protocol"
	"github.com/compacteval/compacteval/internal/record"
)

// The tables of docs/safety.md between these lines are written by TestSafetyDoc.
const (
	safetyDoc   = "../../docs/safety.md"
	safetyStart = "<!-- The tables below are generated: go test ./cmd/compacteval -run TestSafetyDoc -update -->\n"
	safetyEnd   = "<!-- end of the generated tables -->\n"
)

// inputLimits are the bounds that are no flag, read from the constants that set them.
var inputLimits = []struct{ what, limit, where string }{
	{"a session file (`score`, `review -sessions`)", infile.Size(infile.MaxSessionBytes), "infile.MaxSessionBytes"},
	{"a report.json (`report`, `gate` and its `-baseline`, stdin)", infile.Size(infile.MaxReportBytes), "infile.MaxReportBytes"},
	{"gate.yaml (`-config`)", infile.Size(infile.MaxConfigBytes), "infile.MaxConfigBytes"},
	{"the response `extract` reads", infile.Size(infile.MaxResponseBytes), "infile.MaxResponseBytes"},
	{"an instruction text (`-prompt text:FILE`, `-base-file`, `-head-file`)", infile.Size(infile.MaxTextBytes), "infile.MaxTextBytes"},
	{"any of these inputs that is a device (`/dev/zero`)", "refused unread", "infile.Read"},
	{"one answer line of a module or `cmd:` extractor", infile.Size(protocol.MaxAnswerBytes), "protocol.MaxAnswerBytes"},
	{"a token count a provider reports", fmt.Sprintf("0 to %d; else the answer fails and is not kept", record.MaxTokenCount), "record.MaxTokenCount"},
	{"answers per input and side (`review -samples`, `record -n`)", fmt.Sprint(abtest.MaxSamples), "abtest.MaxSamples"},
	{"a price per million tokens (`-price`)", fmt.Sprintf("$0 to $%d", abtest.MaxPrice), "abtest.MaxPrice"},
}

// refusals are what the commands refuse before they work or pay, each with the words of
// its message and the script that shows it (the test checks that the script holds them).
var refusals = []struct{ what, message, script string }{
	{"a number flag set to NaN, an infinity or a value out of its range", "for flag -temperature: not a finite number", "safety_ab.txtar"},
	{"an output (`-markdown`, `-html`, `-junit`, `-baseline`, `-out`) over a file that is not compacteval's own of that kind, a FIFO, a device, or a link to one", "refusing to overwrite", "safety_ab.txtar"},
	{"a paid run whose model has no known price, unless `-max-cost 0`", "no price is known for model", "safety_ab.txtar"},
	{"a paid run whose estimate is over `-max-cost`", "nothing was called", "review_ab.txtar"},
	{"a paid run whose `-cache` cannot keep answers", "cannot keep answers", "safety_ab.txtar"},
	{"a review in which no answer of either side holds a summary (exit 2)", "no summary was found in any of the", "safety_ab.txtar"},
	{"an input file that is a device", "a device, not a session file", "safety_ab.txtar"},
	{"`run -eval-extractor` naming no extractor of the run", "is not among the extractors run", "safety_cli.txtar"},
	{"a temporary module folder whose owner process is gone: removed by the next run", "compacteval-module-live", "reap_tmp.txtar"},
}

// flagLimits returns, per flag limit, the commands that have it: "command -flag" rows.
func flagLimits(t *testing.T) []string {
	t.Helper()
	type row struct{ flag, rng, why string }
	cmds := map[row][]string{}
	collect := func(name string, run func(context.Context, []string, io.Reader, io.Writer, io.Writer) int, args []string) {
		captureFlags = func(fs *flag.FlagSet) {
			out, _ := fs.Output().(*flagOutput)
			if out == nil {
				return
			}
			for fl, l := range out.limits {
				r := row{flag: fl, rng: l.rangeText(fs.Lookup(fl).Value), why: l.why}
				if !slices.Contains(cmds[r], name) {
					cmds[r] = append(cmds[r], name)
				}
			}
		}
		defer func() { captureFlags = nil }()
		run(context.Background(), args, strings.NewReader(""), io.Discard, io.Discard)
	}
	for _, c := range commands() {
		switch c.name {
		case "corpus":
			for _, sub := range corpusSubcommands {
				collect("corpus "+sub, c.run, []string{sub})
			}
		case "review":
			collect("review", c.run, nil)
			collect("review -provider", c.run, []string{"-provider"})
		default:
			collect(c.name, c.run, nil)
		}
	}
	var rows []string
	for r, names := range cmds {
		rows = append(rows, fmt.Sprintf("| `-%s` | %s | %s | %s |", r.flag, r.rng, strings.Join(names, ", "), r.why))
	}
	slices.Sort(rows)
	return rows
}

func safetyTables(t *testing.T) string {
	var b strings.Builder
	b.WriteString(safetyStart)
	b.WriteString("\nEvery number flag is checked when the command line is parsed (`cmd/compacteval/flags.go`): NaN and\n" +
		"infinities are refused for every float flag, and these ranges name the flag in the error:\n\n")
	b.WriteString("| flag | range | commands | why a limit |\n| --- | --- | --- | --- |\n")
	for _, r := range flagLimits(t) {
		b.WriteString(r + "\n")
	}
	b.WriteString("\nInputs read whole have a size limit, and an error names the file and the limit:\n\n")
	b.WriteString("| input | limit | set by |\n| --- | --- | --- |\n")
	for _, l := range inputLimits {
		fmt.Fprintf(&b, "| %s | %s | `%s` |\n", l.what, l.limit, l.where)
	}
	b.WriteString("\nRefused before any work or payment (exit 2), each shown by a script of\n`cmd/compacteval/testdata/script`:\n\n")
	b.WriteString("| refused | message | script |\n| --- | --- | --- |\n")
	for _, r := range refusals {
		fmt.Fprintf(&b, "| %s | \"%s\" | `%s` |\n", r.what, r.message, r.script)
	}
	b.WriteString("\n" + safetyEnd)
	return b.String()
}

// TestSafetyDoc: the tables of limits and refusals in docs/safety.md are the code's, and
// each refusal's message is in the script named for it.
func TestSafetyDoc(t *testing.T) {
	for _, r := range refusals {
		data, err := os.ReadFile(filepath.Join("testdata", "script", r.script))
		if err != nil || !strings.Contains(string(data), r.message) {
			t.Errorf("refusal %q: script %s does not show %q (%v)", r.what, r.script, r.message, err)
		}
	}
	doc, err := os.ReadFile(safetyDoc)
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	i, j := strings.Index(text, safetyStart), strings.Index(text, safetyEnd)
	want := safetyTables(t)
	if i < 0 || j < i {
		if !*update {
			t.Fatalf("%s has no generated tables: run go test ./cmd/compacteval -run TestSafetyDoc -update", safetyDoc)
		}
		text += "\n" + want
	} else if got := text[i : j+len(safetyEnd)]; got != want {
		if !*update {
			t.Fatalf("the tables of %s are stale: run go test ./cmd/compacteval -run TestSafetyDoc -update\n--- got\n%s\n--- want\n%s", safetyDoc, got, want)
		}
		text = text[:i] + want + text[j+len(safetyEnd):]
	} else {
		return
	}
	if err := os.WriteFile(safetyDoc, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
