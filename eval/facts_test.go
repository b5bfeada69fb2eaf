package eval

import (
	"fmt"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/corpus"
	"github.com/google/go-cmp/cmp"
)

// factKeys renders facts as "kind key" for comparison.
func factKeys(facts []Fact) []string {
	out := []string{}
	for _, f := range facts {
		out = append(out, f.Kind+" "+f.key)
	}
	return out
}

func TestFactsFromText(t *testing.T) {
	for _, tc := range []struct {
		name   string
		msg    corpus.Message
		want   []string
		reason string
	}{
		{
			name:   "paths",
			msg:    corpus.Message{Role: "user", Text: "See jobs/export.py:42, ./scripts/run, /etc/nginx/nginx.conf, src/app/ and README.md. Also and/or, I/O, 1/2, src/app."},
			want:   []string{"path /etc/nginx/nginx.conf", "path jobs/export.py", "path readme.md", "path scripts/run", "path src/app"},
			reason: "files, ./ and / prefixes and dir/ count with the location cut off; and/or, I/O and 1/2 do not; src/app counts because src/app/ said it surely",
		},
		{
			name:   "two components alone",
			msg:    corpus.Message{Role: "user", Text: "Compare client/server with the docs."},
			want:   []string{"request message 0"},
			reason: "a two-component token is no path on its own",
		},
		{
			name:   "identifiers",
			msg:    corpus.Message{Role: "assistant", Text: "Call run_export() then os.ReadFile and HTTPServer, camelCase, std::vector; not URLs, PUTs, e.g. v1.2.3 or plain words."},
			want:   []string{"identifier camelcase", "identifier httpserver", "identifier os.readfile", "identifier run_export", "identifier std::vector"},
			reason: "snake_case, qualified names, inner capitals count; acronym plurals, e.g., versions and words do not",
		},
		{
			name:   "plain calls",
			msg:    corpus.Message{Role: "assistant", Text: "Score(in) calls helper(x) and if (x) return(y); the request(s) stay."},
			want:   []string{"identifier helper", "identifier score"},
			reason: "a plain name written as a call is an identifier; keywords and request(s) are not",
		},
		{
			name:   "stdint and noise paths",
			msg:    corpus.Message{Role: "assistant", Text: "The uint8_t buffer goes to /dev/null and /tmp."},
			want:   []string{},
			reason: "common C types and /dev/null, /tmp say nothing about the conversation",
		},
		{
			name:   "urls",
			msg:    corpus.Message{Role: "assistant", Text: "Read https://www.Example.com/Docs/page#frag and (http://localhost:8080/health)."},
			want:   []string{"url example.com/docs/page", "url localhost:8080/health"},
			reason: "scheme, www., fragment and case are dropped from the key",
		},
		{
			name: "errors",
			msg: corpus.Message{Role: "tool", Text: strings.Join([]string{
				"eval/score.go:12:2: undefined: ScoreCase",
				"FAILED tests/test_export.py::test_sorted - AssertionError: rows not sorted by created_at",
				"--- FAIL: TestScore (0.02s)",
				"Traceback (most recent call last):",
				`return NextResponse.json({ error: reason }, { status: 401 });`,
				"error: x",
			}, "\n")},
			want: []string{
				"error --- fail: testscore",
				"error failed tests/test_export.py::test_sorted - assertionerror: rows not sorted by created_at",
				"error undefined: scorecase",
			},
			reason: "the location and duration are cut, the Traceback header, code that mentions error and messages under 12 characters are not errors",
		},
		{
			name:   "tool output names",
			msg:    corpus.Message{Role: "tool", Text: "internal/cache/lru.go\nfunc evictOldest() {}\n$ go build ./..."},
			want:   []string{},
			reason: "names, paths and commands in tool output are not facts on their own",
		},
		{
			name:   "commands in a fence",
			msg:    corpus.Message{Role: "assistant", Text: "Run:\n```sh\ncd /repo && KUBECONFIG=/tmp/k timeout 60 go run ./cmd/main.go --flag\ngrep -rn 'a|b' src/\nls\n```\n$ npm run build"},
			want:   []string{"command go run ./cmd/main.go", "command npm run build", "path /repo", "path /tmp/k", "path cmd/main.go", "path src"},
			reason: "cd, grep and ls only look around (their paths still count); assignments and timeout 60 are skipped; the pipe inside quotes does not split",
		},
		{
			name:   "request",
			msg:    corpus.Message{Role: "user", Text: "yes"},
			want:   []string{},
			reason: "a user message without content words is no request fact",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := factKeys(Facts([]corpus.Message{tc.msg}, nil))
			want := tc.want
			if tc.msg.Role == "user" && tc.name != "request" && tc.name != "two components alone" {
				want = append([]string{"request message 0"}, want...)
			}
			if diff := cmp.Diff(sortedCopy(want), sortedCopy(got)); diff != "" {
				t.Errorf("Facts(%q) mismatch (-want +got), %s:\n%s", tc.msg.Text, tc.reason, diff)
			}
		})
	}
}

func sortedCopy(s []string) []string {
	out := append([]string{}, s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func TestFactsFromToolCalls(t *testing.T) {
	msgs := []corpus.Message{
		{Role: "assistant", ToolCalls: []corpus.ToolCall{
			{ID: "1", Name: "read_file", Input: `{"path": "src/Main"}`},
			{ID: "2", Name: "bash", Input: `{"command": "pytest tests/test_export.py -q"}`},
			{ID: "3", Name: "write", Input: `{"file_path": "a/b.go", "content": "func Score(in Input) Result {\n\tx := helperThing()\n}\ntype Result struct{}"}`},
			{ID: "4", Name: "Bash", Input: "go vet ./..."},
			{ID: "5", Name: "fetch", Input: `{"url": "https://pkg.go.dev/strings"}`},
		}},
	}
	want := []string{
		"command go vet ./...", "command pytest tests/test_export.py", "identifier result", "identifier score",
		"path a/b.go", "path src/main", "path tests/test_export.py", "url pkg.go.dev/strings",
	}
	if diff := cmp.Diff(want, sortedCopy(factKeys(Facts(msgs, nil)))); diff != "" {
		t.Errorf("Facts of tool calls mismatch (-want +got): a path argument is a path whatever its shape, written code gives its definitions only (not helperThing):\n%s", diff)
	}
}

func TestFactsOccurrencesAndOrder(t *testing.T) {
	msgs := []corpus.Message{
		{Role: "user", Text: "Fix jobs/export.py"},
		{Role: "tool", Text: "jobs/export.py: permission denied while opening the file"},
		{Role: "assistant", Text: "Edited jobs/export.py and `run_export`."},
	}
	facts := Facts(msgs, []corpus.Probe{{Message: 2, Fact: "Edited"}, {Message: 0, Fact: "Fix"}})
	var got []string
	for _, f := range facts {
		got = append(got, fmt.Sprintf("%d %s %s %v", f.Message, f.Kind, f.key, f.Messages()))
	}
	want := []string{
		"0 path jobs/export.py [0 2]",
		"0 probe fix [0]",
		"0 request message 0 [0]",
		"1 error permission denied while opening the file [1]",
		"2 identifier run_export [2]",
		"2 probe edited [2]",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Facts order mismatch (-want +got): sorted by first message, kind, key; a path in tool output is not an occurrence:\n%s", diff)
	}
}

func TestMatching(t *testing.T) {
	fact := func(kind, text string, msgs ...corpus.Message) Fact {
		t.Helper()
		if len(msgs) == 0 {
			msgs = []corpus.Message{{Role: "assistant", Text: text}}
		}
		for _, f := range Facts(msgs, nil) {
			if f.Kind == kind {
				return f
			}
		}
		t.Fatalf("no %s fact in %q", kind, text)
		return Fact{}
	}
	for _, tc := range []struct {
		name    string
		fact    Fact
		summary string
		want    bool
		reason  string
	}{
		{"path same", fact(KindPath, "jobs/export.py"), "Edited JOBS/Export.py.", true, "case does not matter"},
		{"path shorter in summary", fact(KindPath, "/home/dev/shop/jobs/export.py"), "changed `jobs/export.py`", true, "the fact ends with the summary's path"},
		{"path longer in summary", fact(KindPath, "export.py"), "see /repo/jobs/export.py:12", true, "the summary's path ends with the fact"},
		{"path dir", fact(KindPath, "src/app/"), "wrote src/app/main.ts", true, "the summary names something in the directory"},
		{"path other dir", fact(KindPath, "internal/main.go"), "cmd/main.go", false, "a different directory with the same base name"},
		{"path partial name", fact(KindPath, "jobs/export.py"), "jobs/export.pyc", false, "paths compare by components"},
		{"ident case", fact(KindIdentifier, "run_export"), "RUN_EXPORT was slow", true, "case does not matter"},
		{"ident qualified in summary", fact(KindIdentifier, "ReadFile"), "os.ReadFile(path)", true, "a part of a qualified name"},
		{"ident last part", fact(KindIdentifier, "os.ReadFile"), "calls ReadFile", true, "a shaped last part stands for the qualified name"},
		{"ident unshaped last part", fact(KindIdentifier, "user.email"), "the email changed", false, "a plain last part does not"},
		{"ident word boundary", fact(KindIdentifier, "run_export"), "run_exports", false, "a name is matched whole"},
		{"plain as code", fact(KindIdentifier, "Score(x)"), "added `Score`", true, "a plain name in backticks"},
		{"plain as call", fact(KindIdentifier, "Score(x)"), "Score() now returns", true, "a plain name followed by ("},
		{"plain as prose", fact(KindIdentifier, "Score(x)"), "the score improved", false, "a plain name in prose is a word"},
		{"error whole", fact(KindError, "TypeError: Cannot read properties of undefined (reading 'map')"), "Fixed `TypeError: Cannot   read properties of undefined (reading \"map\")`.", true, "quotes and whitespace are ignored"},
		{"error message part", fact(KindError, "FAILED t.py::test_x - AssertionError: rows not sorted by created_at"), "the rows not sorted by created_at failure", true, "the text after the last colon"},
		{"error first words", fact(KindError, "panic: runtime error: index out of range [3] with length 3 in goroutine 7 of the worker"), "panic: runtime error: index out of range at startup", true, "the first six words"},
		{"error absent", fact(KindError, "undefined: ScoreCase"), "ScoreCase was undefined", false, "a reworded error is not the error"},
		{"command", fact(KindCommand, "$ go test ./eval -run TestX"), "ran `go  test ./eval`", true, "program and two words, whitespace collapsed"},
		{"url", fact(KindURL, "https://pkg.go.dev/strings#Cut"), "docs: http://pkg.go.dev/strings", true, "scheme and fragment are ignored"},
		{"request half", fact(KindRequest, "", corpus.Message{Role: "user", Text: "Make the nightly export stream rows instead of loading everything"}), "The user wants the nightly export to stream its rows.", true, "half of the content words (nightly, export, stream, rows) are there"},
		{"request missing", fact(KindRequest, "", corpus.Message{Role: "user", Text: "Make the nightly export stream rows instead of loading everything"}), "The user wants faster dashboards.", false, "too few content words"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := newSummaryIndex(tc.summary).holds(&tc.fact); got != tc.want {
				t.Errorf("holds(%s %q, %q) = %v, want %v: %s", tc.fact.Kind, tc.fact.key, tc.summary, got, tc.want, tc.reason)
			}
		})
	}
}
