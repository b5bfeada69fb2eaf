package compact_test

import (
	"github.com/compacteval/compacteval/internal/testhelp/testref"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/internal/protocol"
	"github.com/compacteval/compacteval/internal/textgen"
)

// jsProfiles are the profiles that testdata/profiles.mjs implements in JavaScript.
var jsProfiles = []string{"claude-code@2.1.88", "claude-code@2.1.332", "windmill@67ef1eb", "windmill@10cd0dc", "vscode", "dust", "plain"}

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
		"<ſummary>x</summary>", "a\n\n\n\nb", "<analysis>\n\n\n</analysis>\n\n\nx",
		"<summary>a</summary> <analysis>b</analysis>", "x\n \t<summary>open", "x <summary>open", "x\u2028<summary>open",
		"x\u0085<summary>open", "x\r<summary>open", "<summary>a </summary> b </SUMMARY>")
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

// TestVersionedProfiles pins what tells each version from the one before it, one input per
// change named in issue 14.
func TestVersionedProfiles(t *testing.T) {
	tests := []struct {
		name, profile, text string
		want                compact.Extraction
	}{
		{name: "2.1.88 expands $& in the block", profile: "claude-code@2.1.88",
			text: "<summary>a $& b</summary>",
			want: compact.Extraction{Summary: "Summary:\na <summary>a $& b</summary> b", OK: true, Path: compact.PathBlock}},
		{name: "2.1.332 keeps $& as written", profile: "claude-code@2.1.332",
			text: "<summary>a $& b</summary>",
			want: compact.Extraction{Summary: "Summary:\na $& b", OK: true, Path: compact.PathBlock}},
		{name: "2.1.88 removes the first analysis block wherever it is", profile: "claude-code@2.1.88",
			text: "<summary>s</summary>\n<analysis>x</analysis>",
			want: compact.Extraction{Summary: "Summary:\ns", OK: true, Path: compact.PathBlock}},
		{name: "2.1.332 keeps an analysis block that follows a summary opener", profile: "claude-code@2.1.332",
			text: "<summary>s</summary>\n<analysis>x</analysis>",
			want: compact.Extraction{Summary: "Summary:\ns\n<analysis>x</analysis>", OK: true, Path: compact.PathBlock}},
		{name: "2.1.332 refuses an answer without a summary block", profile: "claude-code@2.1.332",
			text: "<analysis>x</analysis>\nonly prose, no tags",
			want: compact.Extraction{Path: compact.PathRefused}},
		{name: "2.1.332 refuses a mid-line opener without a closer", profile: "claude-code@2.1.332",
			text: "see <summary> below",
			want: compact.Extraction{Path: compact.PathRefused}},
		{name: "2.1.332 accepts an opener at a line start without a closer, whole", profile: "claude-code@2.1.332",
			text: "intro\n  <summary>\nbody",
			want: compact.Extraction{Summary: "intro\n  <summary>\nbody", OK: true, Path: compact.PathWhole}},
		{name: "2.1.88 keeps an answer without tags", profile: "claude-code@2.1.88",
			text: "only prose",
			want: compact.Extraction{Summary: "only prose", OK: true, Path: compact.PathWhole}},
		{name: "windmill@67ef1eb stops at the first closer", profile: "windmill@67ef1eb",
			text: "<summary>asked for a <summary></summary> pair.\nmore</summary>",
			want: compact.Extraction{Summary: "asked for a", OK: true, Path: compact.PathBlock}},
		{name: "windmill@10cd0dc runs to the last closer", profile: "windmill@10cd0dc",
			text: "<summary>asked for a <summary></summary> pair.\nmore</summary>",
			want: compact.Extraction{Summary: "asked for a  pair.\nmore", OK: true, Path: compact.PathBlock}},
		{name: "the bare name is the newest claude-code", profile: "claude-code",
			text: "only prose",
			want: compact.Extraction{Path: compact.PathRefused}},
		{name: "the bare name is the newest windmill", profile: "windmill",
			text: "<summary>a</summary>b</summary>",
			want: compact.Extraction{Summary: "ab", OK: true, Path: compact.PathBlock}},
	}
	for _, tt := range tests {
		ex, ok := compact.Lookup(tt.profile)
		if !ok {
			t.Fatalf("Lookup(%q) found nothing", tt.profile)
		}
		if got := ex.Extract(tt.text); got != tt.want {
			t.Errorf("%s: %s(%q) = %+v, want %+v", tt.name, tt.profile, tt.text, got, tt.want)
		}
	}
}

// TestAliases: a bare agent name looks up its newest version, under the version's name; a
// bare name read from an old report is the version it meant then.
func TestAliases(t *testing.T) {
	for alias, want := range map[string]string{"claude-code": "claude-code@2.1.332", "windmill": "windmill@10cd0dc"} {
		ex, ok := compact.Lookup(alias)
		if !ok || ex.Name != want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", alias, ex.Name, ok, want)
		}
	}
	for old, want := range map[string]string{"claude-code": "claude-code@2.1.88", "windmill": "windmill@67ef1eb"} {
		if got, ok := compact.LegacyName(old); !ok || got != want {
			t.Errorf("LegacyName(%q) = %q, %v; want %q", old, got, ok, want)
		}
	}
	if _, ok := compact.LegacyName("claude-code@2.1.88"); ok {
		t.Errorf("LegacyName(claude-code@2.1.88) is a legacy name, want not")
	}
	for _, name := range compact.ExtractorNames() {
		if _, ok := compact.Alias(name); ok {
			t.Errorf("ExtractorNames() holds the alias %q", name)
		}
	}
}
