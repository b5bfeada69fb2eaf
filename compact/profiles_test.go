package compact_test

import (
	"github.com/compacteval/compacteval/internal/testref"
	"math/rand/v2"
	"os/exec"
	"strings"
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

// TestClaudeCodeOutputCap: claude-code reproduces JavaScript's expansion of "$&" in its
// replacement string, which grows with the square of the input (30 KB of "$&" in a block
// expands to 450 MB upstream); past compact.MaxOutput it stops expanding, keeps the rest as
// written and says so.
func TestClaudeCodeOutputCap(t *testing.T) {
	const pairs = 15000 // 30 KB of "$&"
	text := "<summary>" + strings.Repeat("$&", pairs) + "</summary>"
	e := compact.ExtractClaudeCode(text)
	limit := max(compact.MaxOutput, 2*len(text))
	k := (limit - len("Summary:\n")) / len(text) // the "$&" expanded before the cap
	want := "Summary:\n" + strings.Repeat(text, k) + strings.Repeat("$&", pairs-k)
	if !e.Capped || !e.OK || e.Summary != want {
		t.Errorf("ExtractClaudeCode(30 KB of $&) = %d bytes, capped %v; want %d bytes (%d expansions, then the rest as written), capped", len(e.Summary), e.Capped, len(want), k)
	}
	if len(e.Summary) > limit+len(text) {
		t.Errorf("ExtractClaudeCode(30 KB of $&) = %d bytes, over the cap %d plus the input", len(e.Summary), limit)
	}
	small := "before <summary>a $& b $$ c $' d</summary> after"
	e = compact.ExtractClaudeCode(small)
	if want := "before Summary:\na <summary>a $& b $$ c $' d</summary> b $ c  after d after"; e.Capped || e.Summary != want {
		t.Errorf("ExtractClaudeCode(%q) = %q, capped %v; want %q, not capped", small, e.Summary, e.Capped, want)
	}
}
