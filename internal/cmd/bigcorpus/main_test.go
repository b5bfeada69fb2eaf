package main

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/eval"
)

// TestCopies writes two rounds and a case of the bundled corpus and reads them back: each
// copy is its case under a new id, and a conversation differs from its case's in the other
// round by the first message's last line alone.
func TestCopies(t *testing.T) {
	bundled, err := corpus.LoadFS(corpus.Embedded(), corpus.EmbeddedLabel)
	if err != nil {
		t.Fatal(err)
	}
	n := 2*len(bundled) + 1
	out := filepath.Join(t.TempDir(), "cases")
	if err := write(n, out); err != nil {
		t.Fatal(err)
	}
	got, err := corpus.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != n {
		t.Fatalf("read %d cases, want %d", len(got), n)
	}
	byID := map[string]*corpus.Case{}
	for _, c := range got {
		byID[c.ID] = c
	}
	withConversation := 0
	for j := range n {
		orig, round := bundled[j%len(bundled)], j/len(bundled)
		c := byID[copyID(orig.ID, round)]
		if c == nil {
			t.Fatalf("no copy %d of %s", round, orig.ID)
		}
		want := *orig
		want.ID, want.File, want.SHA256 = c.ID, c.File, c.SHA256
		if len(orig.Conversation) > 0 {
			want.Conversation = append([]corpus.Message(nil), orig.Conversation...)
			want.Conversation[0].Text += fmt.Sprintf("\n\n(copy %d)", round)
			if round == 0 {
				withConversation++
				other := byID[copyID(orig.ID, 1)]
				if eval.SameConversation(inputOf(c), inputOf(other)) {
					t.Errorf("%s: rounds 0 and 1 share a conversation", orig.ID)
				}
			}
		}
		if !reflect.DeepEqual(c, &want) {
			t.Errorf("%s differs from its case %s by more than its id and its first message's last line", c.ID, orig.ID)
		}
	}
	if withConversation == 0 {
		t.Fatal("no bundled case has a conversation: the test checks nothing of them")
	}
}

func inputOf(c *corpus.Case) eval.Input {
	return eval.Input{Conversation: c.Conversation, Probes: c.Probes}
}

func copyID(id string, round int) string {
	folder, name, _ := strings.Cut(id, "/")
	return fmt.Sprintf("%s/copy-%d/%s", folder, round, name)
}
