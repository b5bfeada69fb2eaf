package main

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/internal/protocol"
	"github.com/compacteval/compacteval/internal/testhelp/testref"
	"github.com/google/go-cmp/cmp"
)

// TestFind runs the Node half offline on testdata/bundle.js, a made-up bundle: it must find
// the formatter by its content (not the decoy prompt), its helpers (the nearest
// declaration of a repeated name), and the refusal check, and serve what it found.
func TestFind(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		testref.Missing(t, "the Node half of make peers (needs node)", err)
	}
	cache := t.TempDir()
	out, err := exec.Command(node, "peers.mjs", "find", "testdata/bundle.js", "claude-code@test", cache).Output()
	if err != nil {
		t.Fatalf("peers.mjs find: %v", err)
	}
	var got []found
	if err := json.Unmarshal(out, &got); err != nil || len(got) != 1 {
		t.Fatalf("peers.mjs find printed %s: %v", out, err)
	}
	refusal := "!hasBlock(reply) && !hasOpen(reply)"
	want := found{Profile: "claude-code@test", From: "testdata/bundle.js", Formatter: got[0].Formatter,
		Helpers: []string{"tagAt", "hasBlock", "hasOpen"}, Refusal: &refusal, SHA256: got[0].SHA256}
	if diff := cmp.Diff(want, got[0]); diff != "" || !strings.HasPrefix(got[0].Formatter, "fmt at byte ") {
		t.Errorf("peers.mjs find mismatch (-want +got):\n%s(formatter %q, want fmt)", diff, got[0].Formatter)
	}

	js, err := protocol.Start([]string{node, "peers.mjs", "serve", cache})
	if err != nil {
		t.Fatal(err)
	}
	defer js.Close()
	for _, tc := range []struct {
		in   string
		want answer
	}{
		{in: "before <summary> a </summary>\n\n\nafter", want: answer{summary: "before Summary:\na\n\nafter", ok: true}},
		{in: "prose without tags", want: answer{}},                                    // refused
		{in: "x\n<summary>open", want: answer{summary: "x\n<summary>open", ok: true}}, // an opener at a line start
	} {
		a, err := ask(js, "claude-code@test", []input{{set: "test", text: tc.in}})
		if err != nil {
			t.Fatal(err)
		}
		if a[0] != tc.want {
			t.Errorf("shipped formatter of the made-up bundle on %q = %+v, want %+v", tc.in, a[0], tc.want)
		}
	}
	if _, err := ask(js, "claude-code@nope", []input{{set: "test", text: "x"}}); err == nil {
		t.Errorf("ask(claude-code@nope) = nil error, want unsupported request")
	}
}

// TestMinimize: the smallest text that still fails is found by removing lines, then runes.
func TestMinimize(t *testing.T) {
	fails := func(cands []string) ([]bool, error) {
		out := make([]bool, len(cands))
		for i, c := range cands {
			out[i] = strings.Contains(c, "<a>") && strings.Contains(c, "é")
		}
		return out, nil
	}
	got, err := minimize("line one\nx <a> y\nmiddle\nz é\nlast\n", fails)
	if err != nil || got != "<a>é" {
		t.Errorf("minimize() = %q, %v; want %q", got, err, "<a>é")
	}
}
