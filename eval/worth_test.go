package eval

import (
	"slices"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/corpus"
)

// Facts worth holding: each rule with a session shaped like the real ones that showed it.

func TestFolderInSummary(t *testing.T) {
	// A session that saves screenshots and designs in folders; the summary names the
	// folders as folders. Before, addPath dropped a name without an inner "/", and a
	// summary naming every folder held none of them.
	conv := []corpus.Message{
		{Role: "user", Text: "Put the mockups in ./design/ and the captures in screenshots/, the sources in books/."},
		{Role: "assistant", Text: "Moved the files into design/ and src/core/."},
	}
	facts := Facts(conv, nil)
	for _, tc := range []struct {
		summary string
		key     string
		want    bool
		reason  string
	}{
		{"Mockups live in `./design/`.", "design", true, "a relative folder with ./ and /"},
		{"Captures go to screenshots/.", "screenshots", true, "a folder written with its trailing /"},
		{"Sources: books/ (epub).", "books", true, "a folder in prose"},
		{"Moved the mockups to ./design.", "design", true, "./ makes a folder of a single name"},
		{"The core module moved.", "src/core", false, "the word core is not the folder src/core"},
		{"See the books and the design.", "books", false, "a plain word is not a folder"},
		{"See the books and the design.", "design", false, "a plain word is not a folder"},
	} {
		var f *Fact
		for i := range facts {
			if facts[i].Kind == KindPath && facts[i].key == tc.key {
				f = &facts[i]
			}
		}
		if f == nil {
			t.Fatalf("no path fact %q in %v", tc.key, factKeys(facts))
		}
		if got := newSummaryIndex(tc.summary).holds(f); got != tc.want {
			t.Errorf("holds(path %q, %q) = %v, want %v: %s", tc.key, tc.summary, got, tc.want, tc.reason)
		}
	}
}

func TestErrorsOfAFileRead(t *testing.T) {
	// The agent reads a service whose log calls, and a notes file whose lines, carry error
	// markers; it then runs the tests, which fail.
	read := func(id, path string) corpus.Message {
		return corpus.Message{Role: "assistant", Text: "Reading it.", ToolCalls: []corpus.ToolCall{{ID: id, Name: "Read", Input: `{"file_path": "` + path + `"}`}}}
	}
	conv := []corpus.Message{
		read("r1", "src/sync.ts"),
		{Role: "tool", ToolCallID: "r1", Text: "  1\tlogger.warn('Failed to refresh the token for tenant')\n  2\tthrow new SyncError('Error: upstream closed the stream early')"},
		read("r2", "NOTES.md"),
		{Role: "tool", ToolCallID: "r2", Text: "- Error: cannot find module 'legacy-auth' when built on CI\n- Permission denied on /var/cache in the old image"},
		{Role: "assistant", Text: "Running the tests.", ToolCalls: []corpus.ToolCall{{ID: "b1", Name: "Bash", Input: `{"command": "npm test"}`}}},
		{Role: "tool", ToolCallID: "b1", Text: "FAIL src/sync.test.ts\nError: upstream closed the stream early"},
		{Role: "assistant", Text: "The notes explain the cache failure:\n> Permission denied on /var/cache in the old image\nRebuilding the image."},
	}
	got := factKeys(Facts(conv, nil))
	for _, bad := range []string{
		"error failed to refresh the token for tenant",                 // a log call in a file read
		"error error: cannot find module legacy-auth when built on ci", // a notes line nobody acted on
	} {
		if slices.Contains(got, bad) {
			t.Errorf("Facts has %q, a line of a file read that the session never acted on; all: %v", bad, got)
		}
	}
	for _, good := range []string{
		"error error: upstream closed the stream early",          // the test run printed it too
		"error permission denied on /var/cache in the old image", // the assistant said it
	} {
		if !slices.Contains(got, good) {
			t.Errorf("Facts lacks %q, which the session acted on; all: %v", good, got)
		}
	}
	// The same notes, printed by a command rather than read, are what happened.
	ran := []corpus.Message{
		{Role: "assistant", ToolCalls: []corpus.ToolCall{{ID: "b2", Name: "Bash", Input: `{"command": "npm run build"}`}}},
		{Role: "tool", ToolCallID: "b2", Text: "Error: cannot find module 'legacy-auth' when built on CI"},
	}
	if got := factKeys(Facts(ran, nil)); !slices.Contains(got, "error error: cannot find module legacy-auth when built on ci") {
		t.Errorf("Facts(build output) lacks the build's error; all: %v", got)
	}
}

func TestFragmentsAreNoFacts(t *testing.T) {
	bash := func(cmd string) corpus.Message {
		return corpus.Message{Role: "assistant", ToolCalls: []corpus.ToolCall{{ID: "1", Name: "Bash", Input: `{"command":` + strconvQuote(cmd) + `}`}}}
	}
	for _, tc := range []struct {
		name      string
		msg       corpus.Message
		want, not []string
		reason    string
	}{
		{
			name: "redirections", msg: bash("bun test 2>&1 | tail -20\nbun run lint 2>/dev/null\ngit clone --depth 1 https://github.com/acme/lint.git 2>&1"),
			want:   []string{"command bun test", "command bun run lint", "command git clone"},
			not:    []string{"command bun test 2>", "command bun run lint 2>/dev/null"},
			reason: "2>&1 is a redirection, not a background job; a redirection ends the command's name",
		},
		{
			name: "here-documents", msg: bash("python3 << 'EOF'\nprint(1)\nEOF\ngit commit -m \"$(cat <<'EOF'\nfix: it\nEOF\n)\""),
			want:   []string{"command git commit"},
			not:    []string{"command python3 << eof", "command python3 <<"},
			reason: "a here-document's opener is no part of the command a summary names",
		},
		{
			name: "inline scripts", msg: bash("bun -e 'console.log(1)'\nnode -e \"require('x')\"\npython3 -c 'import sys'"),
			not:    []string{"command bun -e", "command node -e", "command python3 -c", "command bun -e console.log1"},
			reason: "a runner and its flag alone, or a quote it opens, name nothing a summary holds",
		},
		{
			name: "names cut short", msg: corpus.Message{Role: "assistant", Text: "Globbed ~/.claude/projects/-Users-dev-app/agent-*.jsonl and wrote _bmad-output/brainstorming/session-{date}.md and src/lib/test-utils.ts."},
			want:   []string{"path src/lib/test-utils.ts"},
			not:    []string{"path ~/.claude/projects/-users-dev-app/agent-", "path _bmad-output/brainstorming/session-"},
			reason: "a path cut at a glob or a brace ends in - and names no file",
		},
	} {
		facts := Facts([]corpus.Message{tc.msg}, nil)
		got := factKeys(facts)
		for _, f := range facts {
			if text := strings.TrimSpace(f.Text); strings.HasSuffix(text, ">") || strings.HasSuffix(text, "<<") {
				t.Errorf("%s: fact %s %q ends in a dangling redirection", tc.name, f.Kind, f.Text)
			}
		}
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("%s: Facts lacks %q (%s); all: %v", tc.name, w, tc.reason, got)
			}
		}
		for _, n := range tc.not {
			if slices.Contains(got, n) {
				t.Errorf("%s: Facts has %q (%s); all: %v", tc.name, n, tc.reason, got)
			}
		}
	}
}
