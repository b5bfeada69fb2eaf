package abtest

import (
	"strings"

	"github.com/compacteval/compacteval/internal/textdiff"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// Run is a run of a word diff: Op is "=" (both summaries), "-" (base only) or "+" (head
// only).
type Run struct {
	Op   string
	Text string
}

// DiffLine is a line of a word diff: Kind is ' ' (the same in both), '-' (base only), '+'
// (head only) or '!' (words changed within it).
type DiffLine struct {
	Kind byte
	Runs []Run
}

// Text returns the line with changed words marked as the plain review marks them:
// [-base only-] and {+head only+}.
func (l DiffLine) Text() string {
	var b strings.Builder
	for _, r := range l.Runs {
		switch {
		case l.Kind != '!' || r.Op == "=":
			b.WriteString(r.Text)
		case r.Op == "-":
			b.WriteString("[-" + r.Text + "-]")
		default:
			b.WriteString("{+" + r.Text + "+}")
		}
	}
	return b.String()
}

// Hunk is a run of diff lines around changes; Skipped counts the unchanged lines left out
// before it.
type Hunk struct {
	Skipped int
	Lines   []DiffLine
}

// WordDiff returns the word diff of base's and head's summary (textdiff.Words: go-diff's
// semantic cleanup, no timeout) as hunks with ctx unchanged lines around each changed one.
// It returns nil when the summaries are the same.
func WordDiff(base, head string, ctx int) []Hunk {
	if base == head {
		return nil
	}
	var lines []DiffLine
	var cur []Run
	end := func() {
		l := DiffLine{Kind: ' '}
		ins, del, eq := false, false, false
		for _, r := range cur {
			switch r.Op {
			case "+":
				ins = true
			case "-":
				del = true
			default:
				eq = eq || strings.TrimSpace(r.Text) != ""
			}
			if n := len(l.Runs); n > 0 && l.Runs[n-1].Op == r.Op {
				l.Runs[n-1].Text += r.Text
				continue
			}
			l.Runs = append(l.Runs, r)
		}
		switch {
		case ins && !del && !eq:
			l.Kind = '+'
		case del && !ins && !eq:
			l.Kind = '-'
		case ins || del:
			l.Kind = '!'
		}
		lines = append(lines, l)
		cur = nil
	}
	for _, d := range textdiff.Words(base, head) {
		op := "="
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			op = "-"
		case diffmatchpatch.DiffInsert:
			op = "+"
		}
		parts := strings.Split(d.Text, "\n")
		for j, p := range parts {
			if p != "" {
				cur = append(cur, Run{op, p})
			}
			if j < len(parts)-1 {
				if len(cur) == 0 && op != "=" {
					cur = append(cur, Run{op, ""}) // an empty line only one side has
				}
				end()
			}
		}
	}
	if len(cur) > 0 {
		end()
	}
	keep := make([]bool, len(lines))
	changed := false
	for i, l := range lines {
		if l.Kind != ' ' {
			changed = true
			for j := max(0, i-ctx); j <= min(len(lines)-1, i+ctx); j++ {
				keep[j] = true
			}
		}
	}
	if !changed {
		return nil
	}
	var out []Hunk
	skipped := 0
	for i, l := range lines {
		if !keep[i] {
			skipped++
			continue
		}
		if len(out) == 0 || skipped > 0 {
			out = append(out, Hunk{Skipped: skipped})
			skipped = 0
		}
		out[len(out)-1].Lines = append(out[len(out)-1].Lines, l)
	}
	return out
}
