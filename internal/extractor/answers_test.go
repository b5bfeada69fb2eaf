package extractor

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
)

// TestCacheBounded: a command extractor keeps at most CacheBytes of answers,
// the oldest dropped first, and still answers every text right: those it dropped during
// the same ExtractAll, those it drops before an Extract, a text given twice.
func TestCacheBounded(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("SKIP: python3 is not on PATH")
	}
	script := filepath.Join(t.TempDir(), "upper.py")
	src := `import json, sys
for line in sys.stdin:
    if not line.strip():
        continue
    req = json.loads(line)
    print(json.dumps({"id": req["id"], "summary": req.get("text", "").upper()}), flush=True)
`
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	defer func(n int) { CacheBytes = n }(CacheBytes)
	texts := make([]string, 40)
	for i := range texts {
		texts[i] = fmt.Sprintf("text %02d: %s", i, strings.Repeat("x", 1000))
	}
	texts = append(texts, texts[3]) // asked twice in one call
	CacheBytes = 3 * cost(compact.Extraction{Summary: strings.ToUpper(texts[0]), OK: true})
	ex, err := Open(context.Background(), "cmd:python3 "+script, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	got, err := ex.ExtractAll(texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range got {
		if want := strings.ToUpper(texts[i]); !x.OK || x.Summary != want {
			t.Errorf("ExtractAll()[%d] = %v %.20q, want true %.20q", i, x.OK, x.Summary, want)
		}
	}
	ex.mu.Lock()
	kept, bytes := len(ex.cache.m), ex.cache.bytes
	_, last := ex.cache.m[keyOf(texts[39])]
	ex.mu.Unlock()
	if kept != 3 || bytes > CacheBytes || !last {
		t.Errorf("after ExtractAll the extractor keeps %d answers in %d bytes (the last text's: %v), want 3 in at most %d, the last's among them", kept, bytes, last, CacheBytes)
	}
	if x := ex.Extract(texts[0]); x.Summary != strings.ToUpper(texts[0]) { // dropped: asked again
		t.Errorf("Extract(a dropped text) = %.20q, want %.20q", x.Summary, strings.ToUpper(texts[0]))
	}
	if err := ex.Err(); err != nil {
		t.Error(err)
	}
}
