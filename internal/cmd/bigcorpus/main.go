// Command bigcorpus writes a large synthetic corpus for measuring a run's time and memory:
// n case files, copies of the bundled cases in id order, round and round, each under a new
// id (<folder>/copy-<round>/<name> for the case <folder>/<name>: a round's cases sit in
// the bundled order, so that what a run reads side by side, a session's summaries among
// them, is as in the bundled corpus). The output depends only on n and the bundled corpus,
// so two machines measure the same files. scripts/memory-table.sh runs it:
//
//	go run ./internal/cmd/bigcorpus -n 21500 -out /tmp/cases-21500
//
// The copies keep everything but the id and, where a case has a conversation, its first
// message, which ends with a line naming the round ("(copy 3)"): so that no two rounds
// share a conversation, which eval would prepare once (eval.SameConversation), as a real
// corpus of that size would not; cases of one round share what the bundled cases share.
// Their goldens are not written: a run on the folder skips the golden stage, as a run on a
// user's recorded cases does.
//
// Exit codes: 0 written, 2 usage or a file that cannot be read or written.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/compacteval/compacteval/corpus"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bigcorpus", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 0, "how many case `files` to write (required)")
	out := fs.String("out", "", "the `folder` to write them to; it must not exist (required)")
	if err := fs.Parse(args); err != nil || *n < 1 || *out == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: bigcorpus -n N -out DIR")
		return 2
	}
	if err := write(*n, *out); err != nil {
		fmt.Fprintf(stderr, "bigcorpus: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "wrote %d cases in %s\n", *n, *out)
	return 0
}

// write writes n copies of the bundled cases into out.
func write(n int, out string) error {
	if _, err := os.Stat(out); err == nil {
		return fmt.Errorf("%s exists: give a new folder", out)
	}
	cases, err := corpus.LoadFS(corpus.Embedded(), corpus.EmbeddedLabel)
	if err != nil {
		return err
	}
	// A case without a conversation is formatted once and its copies differ only in the
	// id line; one with a conversation is formatted for each copy.
	files := make([][]byte, len(cases))
	for i, c := range cases {
		if len(c.Conversation) > 0 {
			continue
		}
		if files[i], err = corpus.Format(c); err != nil {
			return fmt.Errorf("format %s: %w", c.ID, err)
		}
		if !bytes.Contains(files[i], idLine(c.ID)) {
			return fmt.Errorf("format %s: no line %q", c.ID, idLine(c.ID))
		}
	}
	for j := range n {
		c, round := cases[j%len(cases)], j/len(cases)
		folder, name, ok := strings.Cut(c.ID, "/")
		if !ok {
			return fmt.Errorf("case %s is in no folder", c.ID)
		}
		id := fmt.Sprintf("%s/copy-%d/%s", folder, round, name)
		data := files[j%len(cases)]
		if data == nil {
			cp := *c
			cp.ID = id
			cp.Conversation = slices.Clone(c.Conversation)
			cp.Conversation[0].Text += fmt.Sprintf("\n\n(copy %d)", round)
			if data, err = corpus.Format(&cp); err != nil {
				return fmt.Errorf("format %s: %w", id, err)
			}
		} else {
			data = bytes.Replace(data, idLine(c.ID), idLine(id), 1)
		}
		path := filepath.Join(out, filepath.FromSlash(id)+".yaml")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func idLine(id string) []byte { return []byte("\nid: " + id + "\n") }
