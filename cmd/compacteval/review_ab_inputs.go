package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/internal/abtest"
	"github.com/compacteval/compacteval/internal/infile"
)

// abInputs reads every -sessions value: pi sessions and Claude Code transcripts (a file,
// or the .jsonl files below a folder), corpus case files and folders (their cases with a
// conversation). Inputs that repeat a conversation count once.
func abInputs(paths []string, keepTokens int, stderr io.Writer) ([]abtest.Input, error) {
	var all []abtest.Input
	for _, path := range paths {
		info, err := os.Stat(path)
		if err != nil {
			return nil, err
		}
		var sessions []string
		corpusToo := !info.IsDir() && !strings.EqualFold(filepath.Ext(path), ".jsonl")
		if info.IsDir() {
			err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				switch strings.ToLower(filepath.Ext(p)) {
				case ".jsonl":
					sessions = append(sessions, p)
				case ".yaml", ".yml":
					corpusToo = true
				}
				return nil
			})
			if err != nil {
				return nil, err
			}
		} else if !corpusToo {
			sessions = []string{path}
		}
		slices.Sort(sessions)
		for _, s := range sessions {
			ins, err := sessionInputs(s, keepTokens, stderr)
			if err != nil {
				return nil, err
			}
			for i := range ins {
				ins[i].Eval.ID = givenName(path, s, ins[i].Eval.ID)
				ins[i].Eval.Source = givenName(path, s, ins[i].Eval.Source)
			}
			all = append(all, ins...)
		}
		if corpusToo {
			cases, problems, err := loadCorpus(path)
			if err != nil {
				return nil, err
			}
			if len(problems) > 0 {
				return nil, fmt.Errorf("%d corpus problems in %s (compacteval corpus lint):\n%v", len(problems), path, problems)
			}
			for _, c := range cases {
				if in, ok := eval.FromCase(c); ok {
					in.Source = givenName(path, c.File, in.Source)
					all = append(all, abtest.Input{Case: c, Eval: in})
				}
			}
		}
	}
	// A compaction with nothing before it has nothing to send: say so, and review the rest.
	withConv := all[:0]
	for _, in := range all {
		if len(in.Case.Conversation) == 0 {
			fmt.Fprintf(stderr, "compacteval review: %s has no conversation to summarize: not an input\n", in.Eval.ID)
			continue
		}
		withConv = append(withConv, in)
	}
	kept, dropped := abtest.Dedupe(withConv)
	if len(dropped) > 0 {
		fmt.Fprintf(stderr, "compacteval review: %s with the conversation of an earlier input counted once\n", plural(len(dropped), "input"))
	}
	if len(kept) == 0 {
		return nil, errors.New("no input: no compaction in the sessions, no case with a conversation")
	}
	return kept, nil
}

// sessionInputs returns an input per compaction of a session file. The previous
// compaction's summary, which the model had in context, leads the conversation sent.
func sessionInputs(path string, keepTokens int, stderr io.Writer) ([]abtest.Input, error) {
	data, err := infile.Read(path, infile.MaxSessionBytes, "a session file")
	if err != nil {
		return nil, err
	}
	format, ok := eval.DetectFormat(data)
	if !ok {
		return nil, fmt.Errorf("%s: neither a pi session nor a Claude Code transcript", path)
	}
	read := eval.ReadPiSession
	if format == eval.FormatClaudeCode {
		read = eval.ReadClaudeCode
	}
	ins, st, err := read(bytes.NewReader(data), path)
	if err != nil {
		return nil, err
	}
	// What the reader skipped, said as review's: score's words, review's name.
	var said strings.Builder
	reportSource(&said, eval.Source{Path: path, Stats: &st})
	io.WriteString(stderr, strings.ReplaceAll(said.String(), "compacteval score: ", "compacteval review: "))
	var out []abtest.Input
	for i, in := range ins {
		if in.Cut < 0 {
			in.Cut = eval.Boundary(in.Conversation, keepTokens)
		}
		in.Summary, in.Response = nil, ""
		conv := in.Conversation
		if in.PreviousSummary != "" {
			conv = append([]corpus.Message{{Role: corpus.RoleUser, Text: compact.ContinuationSummary(in.PreviousSummary, "")}}, conv...)
		}
		name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		c := &corpus.Case{
			ID: "eval/" + corpus.Slug(fmt.Sprintf("%s-compaction-%d", name, i+1)), File: path, Categories: []string{"eval"},
			Conversation: sendable(conv), KeptTail: len(in.Conversation) - in.Cut,
		}
		out = append(out, abtest.Input{Case: c, Eval: in})
	}
	return out, nil
}

// sendable returns the conversation as the model is sent it: a tool message that answers
// no earlier tool call (a pi bashExecution from a user's !command, an extension's custom
// message, a branch summary) becomes a user message, as pi's convertToLlm sends it. eval
// reads those as tool messages (context the model saw, not the user's words), but a case
// holds a tool message only as the answer to a call, and the recorded case must check out.
// The messages keep their places, so the cut and the kept tail stay where they are.
func sendable(conv []corpus.Message) []corpus.Message {
	out := make([]corpus.Message, len(conv))
	calls := map[string]bool{}
	for i, m := range conv {
		for _, tc := range m.ToolCalls {
			calls[tc.ID] = true
		}
		if m.Role == corpus.RoleTool && !calls[m.ToolCallID] {
			m.Role, m.ToolCallID = corpus.RoleUser, ""
		}
		out[i] = m
	}
	return out
}

// givenName returns name (a file path, or an id or source that begins with it) as the
// -sessions value given names it, so that a review names its inputs the same on every
// machine: relative to that value when it is an absolute folder (its last element leads),
// the file's own name when it is an absolute file, unchanged when it is relative.
func givenName(given, file, name string) string {
	if !filepath.IsAbs(given) || !strings.HasPrefix(name, file) {
		return name
	}
	short := filepath.Base(file)
	if rel, err := filepath.Rel(given, file); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		short = filepath.Join(filepath.Base(given), rel)
	}
	return filepath.ToSlash(short) + name[len(file):]
}
