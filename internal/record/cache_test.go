package record

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/google/go-cmp/cmp"
)

func TestCache(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	req, err := NewRequest(source(t), OpenAI, "m1", Params{MaxTokens: 9}, compact.ReasonManual, 2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(req); !errors.Is(err, ErrCacheMiss) {
		t.Fatalf("Get(empty cache) = %v, want ErrCacheMiss", err)
	}
	want := &Response{Text: "<summary>\nx\n</summary>", Model: "m1", StopReason: "stop", Usage: map[string]int{"prompt_tokens": 3}, Date: "2025-03-14"}
	if err := c.Put(req, want); err != nil {
		t.Fatal(err)
	}
	got, err := c.Get(req)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Get(Put(x)) mismatch (-want +got):\n%s", diff)
	}
	other := *req
	other.Sample = 3
	if _, err := c.Get(&other); !errors.Is(err, ErrCacheMiss) {
		t.Errorf("Get(another sample) = %v, want ErrCacheMiss", err)
	}

	// An entry under the wrong name or a damaged one is an error, not a replay.
	path := c.path(req.Key())
	data, _ := os.ReadFile(path)
	if err := os.MkdirAll(filepath.Dir(c.path(other.Key())), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(c.path(other.Key()), data, 0o644)
	if _, err := c.Get(&other); err == nil || errors.Is(err, ErrCacheMiss) || !strings.Contains(err.Error(), "is for key") {
		t.Errorf("Get(an entry filed under another key) = %v, want an error", err)
	}
	os.WriteFile(path, []byte("{not json"), 0o644)
	if _, err := c.Get(req); err == nil || errors.Is(err, ErrCacheMiss) {
		t.Errorf("Get(damaged entry) = %v, want an error", err)
	}
}
