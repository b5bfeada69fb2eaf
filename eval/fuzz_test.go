package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/compacteval/compacteval/corpus"
)

// go test -run='^$' -fuzz='^FuzzScore$' -fuzztime=30s -fuzzminimizetime=5s ./eval
//
// FuzzScore scores a conversation built from text (messages separated by "\n--\n", roles
// cycling user, assistant, tool) against summary, and checks what must hold for any input:
// no share counts more hits than facts, the cut and window stay in range, the result is
// the same twice, and removing a line of the summary (the one kept picks, when it is no
// heading or fence delimiter) or its last half raises no count; and normText of the text
// and the summary is normTextRunes's. Minimizing an input of several kilobytes takes the default minute; the
// shorter -fuzzminimizetime keeps the run fuzzing.
func FuzzScore(f *testing.F) {
	for _, c := range loadSeedCases(f) {
		var parts []string
		for _, m := range c.Conversation {
			parts = append(parts, m.Text)
		}
		f.Add(strings.Join(parts, "\n--\n"), c.Intended.Summary, c.KeptTail)
	}
	f.Add("Fix jobs/export.py\n--\nrun `go test ./...`\n--\nError: boom happened here", "8. Current Work:\njobs/export.py", 1)
	f.Fuzz(func(t *testing.T, text, summary string, kept int) {
		var msgs []corpus.Message
		for i, part := range strings.Split(text, "\n--\n") {
			msgs = append(msgs, corpus.Message{Role: []string{"user", "assistant", "tool"}[i%3], Text: part})
		}
		in := Input{ID: "fuzz", Conversation: msgs, Cut: len(msgs) - kept, Summary: &summary}
		r := Score(in, Options{})
		shares := []Share{r.Coverage, r.BoundaryCoverage, r.TailLeakage, r.UserMessages, r.ConstraintsVerbatim}
		shares = append(shares, r.CoverageCurve[:]...)
		for _, s := range shares {
			if s.Hit < 0 || s.Hit > s.Of {
				t.Fatalf("share %+v out of range", s)
			}
		}
		if r.Cut < 0 || r.Cut > len(msgs) || r.Window > r.Cut {
			t.Fatalf("cut %d, window %d for %d messages", r.Cut, r.Window, len(msgs))
		}
		a, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{text, summary} {
			if got, want := normText(s), normTextRunes(s); got != want {
				t.Fatalf("normText(%q) = %q, want %q (normTextRunes)", s, got, want)
			}
		}
		b, _ := json.Marshal(Score(in, Options{}))
		if !bytes.Equal(a, b) {
			t.Fatalf("Score is not deterministic:\n%s\n%s", a, b)
		}
		lay := parseLayout(summary)
		lines := strings.Split(summary, "\n")
		var smaller []string
		if k := (kept%len(lines) + len(lines)) % len(lines); !lay.lines[k].heading && !lay.lines[k].fence {
			smaller = append(smaller, strings.Join(append(append([]string{}, lines[:k]...), lines[k+1:]...), "\n"))
		}
		smaller = append(smaller, strings.Join(lines[:len(lines)/2], "\n"))
		base := countsOf(r)
		for _, s := range smaller {
			s := s
			in.Summary = &s
			c := countsOf(Score(in, Options{}))
			for k := range c.values {
				if c.values[k] > base.values[k]+1e-4 {
					t.Fatalf("removing text raises %s from %v to %v:\n%q\n->\n%q", countNames[k], base.values[k], c.values[k], summary, s)
				}
			}
		}
	})
}

// go test -run='^$' -fuzz='^FuzzReadSession$' -fuzztime=30s -fuzzminimizetime=5s ./eval
//
// FuzzReadSession feeds bytes to both session readers: they never panic, every error is a
// *LineError or says the file is not a session, and what they return scores.
func FuzzReadSession(f *testing.F) {
	for _, name := range []string{"pi/v1.jsonl", "pi/v2.jsonl", "pi/v3.jsonl", "claude/transcript.jsonl"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, read := range []func(*bytes.Reader, string) ([]Input, Stats, error){
			func(r *bytes.Reader, n string) ([]Input, Stats, error) { return ReadPiSession(r, n) },
			func(r *bytes.Reader, n string) ([]Input, Stats, error) { return ReadClaudeCode(r, n) },
		} {
			ins, _, err := read(bytes.NewReader(data), "f.jsonl")
			var le *LineError
			if err != nil && !errors.As(err, &le) && !errors.Is(err, ErrNotSession) {
				t.Fatalf("error %v is neither a *LineError nor ErrNotSession", err)
			}
			for _, in := range ins {
				Score(in, Options{})
			}
		}
	})
}

// loadSeedCases returns the synthetic cases of testdata/cases. The corpus's eval cases
// are left out: at up to 400 messages each they make every fuzzing step slow.
func loadSeedCases(f *testing.F) []*corpus.Case {
	cases, err := corpus.Load("testdata/cases")
	if err != nil {
		f.Fatal(err)
	}
	return cases
}

// normTextRunes is normText a rune at a time, as it was first written: FuzzScore holds
// normText's byte loop equal to it.
func normTextRunes(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case r == '`' || r == '"' || r == '\'' || r == '*' || r == '‘' || r == '’' || r == '“' || r == '”':
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if r < utf8.RuneSelf {
			if r >= 'A' && r <= 'Z' {
				r += 'a' - 'A'
			}
			b.WriteByte(byte(r))
		} else {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}
