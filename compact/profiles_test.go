package compact_test

import (
	"github.com/compacteval/compacteval/internal/testref"
	"math/rand/v2"
	"os/exec"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/internal/protocol"
	"github.com/compacteval/compacteval/internal/textgen"
)

// jsProfiles are the profiles that testdata/profiles.mjs implements in JavaScript.
var jsProfiles = []string{"claude-code", "windmill", "vscode", "dust", "plain"}

// startJSProfiles starts testdata/profiles.mjs under Node, or skips saying why.
func startJSProfiles(t *testing.T) *protocol.Client {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		testref.Missing(t, "JavaScript agreement of the extractor profiles (needs node)", err)
	}
	c, err := protocol.Start([]string{node, "testdata/profiles.mjs"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("close profiles.mjs: %v", err)
		}
	})
	return c
}

// TestProfilesAgreeWithJS holds every JavaScript profile to the same regular expressions,
// replace and trim run by Node, on generated texts and every corpus response.
func TestProfilesAgreeWithJS(t *testing.T) {
	js := startJSProfiles(t)
	r := rand.New(rand.NewPCG(*diffSeed, 0x9e0f))
	texts := append(seedTexts(t), "", " ", "<summary>", "<summary></summary>", "<SUMMARY>x</summary>",
		"<summary>\n$& $' $` $$ $1 $<x>\n</summary>", "<analysis><summary>a</summary></analysis><summary>b</summary>",
		"<ſummary>x</summary>", "a\n\n\n\nb", "<analysis>\n\n\n</analysis>\n\n\nx")
	for range 4000 {
		texts = append(texts, textgen.Response(r, 16<<10))
	}
	for _, name := range jsProfiles {
		ex, ok := compact.Lookup(name)
		if !ok {
			t.Fatalf("no extractor %q", name)
		}
		reqs := make([]protocol.Request, len(texts))
		for i, text := range texts {
			reqs[i] = protocol.Request{Op: "extract", Profile: protocol.Str(name), Text: protocol.Str(text)}
		}
		answers, err := js.DoAll(reqs)
		if err != nil {
			t.Fatal(err)
		}
		found := 0
		for i, a := range answers {
			want, wantOK := refSummary(t, a)
			got := ex.Extract(texts[i])
			if got.Summary != want || got.OK != wantOK {
				t.Fatalf("%s(%q)\n got (%q, %v) via %s\nwant (%q, %v) from JavaScript", name, texts[i], got.Summary, got.OK, got.Path, want, wantOK)
			}
			if got.OK {
				found++
			}
		}
		t.Logf("%s: %d texts agree, %d with a summary", name, len(texts), found)
	}
}
