package textdiff

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sergi/go-diff/diffmatchpatch"
)

func TestHunks(t *testing.T) {
	for _, tc := range []struct {
		name   string
		lines  string // one byte a line: '.' unchanged, 'x' changed
		ctx    int
		want   []string
		reason string
	}{
		{
			name: "one change in the middle", lines: "....x....", ctx: 1,
			want:   []string{"@@ 3: 3 4 5"},
			reason: "ctx lines on each side; the lines after the hunk are dropped uncounted",
		},
		{
			name: "changes 2*ctx apart", lines: "x..x", ctx: 1,
			want:   []string{"@@ 0: 0 1 2 3"},
			reason: "the contexts touch, so the changes share one hunk",
		},
		{
			name: "changes 2*ctx+1 apart", lines: "x...x", ctx: 1,
			want:   []string{"@@ 0: 0 1", "@@ 1: 3 4"},
			reason: "one line between the contexts is skipped and counted",
		},
		{
			name: "no context", lines: ".x.x.", ctx: 0,
			want:   []string{"@@ 1: 1", "@@ 1: 3"},
			reason: "ctx 0 keeps only the changed lines",
		},
		{
			name: "context past the ends", lines: "x.", ctx: 5,
			want:   []string{"@@ 0: 0 1"},
			reason: "context is clipped at the first and last line",
		},
		{
			name: "nothing changed", lines: "...", ctx: 1,
			want:   nil,
			reason: "no hunk at all, not one of context",
		},
	} {
		var lines []int
		for i := range tc.lines {
			lines = append(lines, i)
		}
		var got []string
		for _, h := range Hunks(lines, func(i int) bool { return tc.lines[i] == 'x' }, tc.ctx) {
			s := fmt.Sprintf("@@ %d:", h.Skipped)
			for _, i := range h.Lines {
				s += fmt.Sprintf(" %d", i)
			}
			got = append(got, s)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: Hunks(%q, ctx %d) mismatch (-want +got), %s:\n%s", tc.name, tc.lines, tc.ctx, tc.reason, diff)
		}
	}
}

func TestNewLine(t *testing.T) {
	every := func(string) bool { return true }
	notBlank := func(s string) bool { return strings.TrimSpace(s) != "" }
	for _, tc := range []struct {
		name   string
		runs   []Edit
		brk    string
		shared func(string) bool
		want   Line
		reason string
	}{
		{
			name: "unchanged", runs: []Edit{{Op: "=", Text: "a "}, {Op: "=", Text: "b"}}, shared: every,
			want:   Line{Kind: ' ', Runs: []Edit{{Op: "=", Text: "a b"}}},
			reason: "adjacent runs of one op are joined",
		},
		{
			name: "words changed", runs: []Edit{{Op: "=", Text: "The notice."}, {Op: "+", Text: " Only"}, {Op: "+", Text: " the tail."}}, shared: every,
			want:   Line{Kind: '!', Runs: []Edit{{Op: "=", Text: "The notice."}, {Op: "+", Text: " Only the tail."}}},
			reason: "a change beside shared text marks the words",
		},
		{
			name: "whole line added", runs: []Edit{{Op: "+", Text: "two"}}, shared: every,
			want:   Line{Kind: '+', Runs: []Edit{{Op: "+", Text: "two"}}},
			reason: "a line with only inserted runs is '+'",
		},
		{
			name: "whole line removed", runs: []Edit{{Op: "-", Text: "two"}}, shared: every,
			want:   Line{Kind: '-', Runs: []Edit{{Op: "-", Text: "two"}}},
			reason: "a line with only deleted runs is '-'",
		},
		{
			name: "replaced", runs: []Edit{{Op: "-", Text: "a"}, {Op: "+", Text: "b"}}, shared: every,
			want:   Line{Kind: '!', Runs: []Edit{{Op: "-", Text: "a"}, {Op: "+", Text: "b"}}},
			reason: "both ops in one line is '!' even with nothing shared",
		},
		{
			name: "indent shared, counted", runs: []Edit{{Op: "=", Text: "   "}, {Op: "+", Text: "new"}}, shared: every,
			want:   Line{Kind: '!', Runs: []Edit{{Op: "=", Text: "   "}, {Op: "+", Text: "new"}}},
			reason: "review's measure: any shared run makes the line '!'",
		},
		{
			name: "indent shared, not counted", runs: []Edit{{Op: "=", Text: "   "}, {Op: "+", Text: "new"}}, shared: notBlank,
			want:   Line{Kind: '+', Runs: []Edit{{Op: "=", Text: "   "}, {Op: "+", Text: "new"}}},
			reason: "abtest's measure: shared white space alone leaves the line '+'",
		},
		{
			name: "only the line break added", runs: []Edit{{Op: "=", Text: "x"}}, brk: "+", shared: every,
			want:   Line{Kind: '!', Runs: []Edit{{Op: "=", Text: "x"}}},
			reason: "a line break only one side has is a change",
		},
		{
			name: "an empty line added", runs: nil, brk: "+", shared: every,
			want:   Line{Kind: '+'},
			reason: "a changed line break alone makes a '+' line",
		},
	} {
		if diff := cmp.Diff(tc.want, NewLine(tc.runs, tc.brk, tc.shared)); diff != "" {
			t.Errorf("%s: NewLine(%v, %q) mismatch (-want +got), %s:\n%s", tc.name, tc.runs, tc.brk, tc.reason, diff)
		}
	}
}

func TestEdits(t *testing.T) {
	in := []diffmatchpatch.Diff{
		{Type: diffmatchpatch.DiffEqual, Text: "a "},
		{Type: diffmatchpatch.DiffDelete, Text: "b"},
		{Type: diffmatchpatch.DiffInsert, Text: "c"},
	}
	want := []Edit{{Op: "=", Text: "a "}, {Op: "-", Text: "b"}, {Op: "+", Text: "c"}}
	if diff := cmp.Diff(want, Edits(in)); diff != "" {
		t.Errorf("Edits() mismatch (-want +got):\n%s", diff)
	}
	if got := Edits(nil); got != nil {
		t.Errorf("Edits(nil) = %v, want nil", got)
	}
}
