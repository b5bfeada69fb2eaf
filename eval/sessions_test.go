package eval

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/corpus"
	"github.com/google/go-cmp/cmp"
)

func readFixture(t *testing.T, read func(*os.File, string) ([]Input, Stats, error), name string) ([]Input, Stats) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ins, st, err := read(f, name)
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	return ins, st
}

func readPi(f *os.File, name string) ([]Input, Stats, error)     { return ReadPiSession(f, name) }
func readClaude(f *os.File, name string) ([]Input, Stats, error) { return ReadClaudeCode(f, name) }

// str returns a pointer to s, for Input.Summary.
func str(s string) *string { return &s }

func TestReadPiSession(t *testing.T) {
	for _, tc := range []struct {
		file   string
		reason string
		want   []Input
		stats  Stats
	}{
		{
			file:   "pi/v1.jsonl",
			reason: "version 1: firstKeptEntryIndex 5 counts the header as entry 0, so the cut falls before the second user message; the thinking level change holds no message",
			want: []Input{{
				ID: "pi/v1.jsonl#compaction-1", Source: "pi/v1.jsonl:9",
				Conversation: []corpus.Message{
					{Role: "user", Text: "Fix the refund total in internal/billing/refund.go, it double counts partial refunds."},
					{Role: "assistant", Text: "Reading the refund code.", ToolCalls: []corpus.ToolCall{{ID: "c1", Name: "read", Input: `{"path":"internal/billing/refund.go"}`}}},
					{Role: "tool", ToolCallID: "c1", Text: "func applyRefund(inv *Invoice, amount int64) {\n\tinv.Total -= amount\n\tinv.Refunded += amount\n}"},
					{Role: "user", Text: "Also run the billing tests."},
					{Role: "assistant", ToolCalls: []corpus.ToolCall{{ID: "c2", Name: "bash", Input: `{"command":"go test ./internal/billing/..."}`}}},
					{Role: "tool", ToolCallID: "c2", Text: "ok  \tshop/internal/billing\t0.014s"},
				},
				Cut:      3,
				Response: "1. Primary Request and Intent:\n   Fix applyRefund in internal/billing/refund.go, which double counts partial refunds.",
				Summary:  str("1. Primary Request and Intent:\n   Fix applyRefund in internal/billing/refund.go, which double counts partial refunds."),
			}},
			stats: Stats{Format: "pi", Lines: 10, Messages: 7, Compactions: 1, Skipped: map[string]int{"thinking_level_change": 1}},
		},
		{
			file:   "pi/v2.jsonl",
			reason: "version 2: each compaction follows its parentId branch (the abandoned b1 is left out); the second starts at the first one's first kept entry and carries its summary",
			want: []Input{
				{
					ID: "pi/v2.jsonl#compaction-1", Source: "pi/v2.jsonl:8",
					Conversation: []corpus.Message{
						{Role: "user", Text: "Add a token bucket rate limiter in internal/ratelimit/limiter.go"},
						{Role: "assistant", Text: "Writing `NewLimiter(rps, burst)`.", ToolCalls: []corpus.ToolCall{{ID: "t1", Name: "write", Input: `{"path":"internal/ratelimit/limiter.go","content":"func NewLimiter(rps float64, burst int) *Limiter { return &Limiter{} }"}`}}},
						{Role: "tool", ToolCallID: "t1", Text: "Wrote internal/ratelimit/limiter.go"},
						{Role: "user", Text: "Evict clients that stay idle for 10 minutes"},
						{Role: "assistant", Text: "Adding `evictIdle` with a ticker."},
					},
					Cut:      3,
					Response: "First summary: NewLimiter in internal/ratelimit/limiter.go; evictIdle in progress.",
					Summary:  str("First summary: NewLimiter in internal/ratelimit/limiter.go; evictIdle in progress."),
				},
				{
					ID: "pi/v2.jsonl#compaction-2", Source: "pi/v2.jsonl:13",
					Conversation: []corpus.Message{
						{Role: "user", Text: "Evict clients that stay idle for 10 minutes"},
						{Role: "assistant", Text: "Adding `evictIdle` with a ticker."},
						{Role: "user", Text: "Now write TestEvictIdle"},
						{Role: "assistant", ToolCalls: []corpus.ToolCall{{ID: "t2", Name: "bash", Input: `{"command":"go test ./internal/ratelimit/ -run TestEvictIdle"}`}}},
						{Role: "tool", ToolCallID: "t2", Text: "--- FAIL: TestEvictIdle (0.00s)\n    limiter_test.go:12: client still present after 11m"},
					},
					Cut:             3,
					PreviousSummary: "First summary: NewLimiter in internal/ratelimit/limiter.go; evictIdle in progress.",
					Response:        "Second summary: evictIdle added; TestEvictIdle fails: client still present after 11m.",
					Summary:         str("Second summary: evictIdle added; TestEvictIdle fails: client still present after 11m."),
				},
			},
			stats: Stats{Format: "pi", Lines: 13, Messages: 9, Compactions: 2, Skipped: map[string]int{"label": 1}},
		},
		{
			file:   "pi/v3.jsonl",
			reason: "version 3: bashExecution, custom, custom_message and branch_summary are context (tool messages without a call); the unknown entry type and role are counted and skipped",
			want: []Input{{
				ID: "pi/v3.jsonl#compaction-1", Source: "pi/v3.jsonl:11",
				Conversation: []corpus.Message{
					{Role: "user", Text: "Why does make build fail?"},
					{Role: "tool", Text: "$ make build\nmain.go:3:2: undefined: loadConfig"},
					{Role: "assistant", Text: "`loadConfig` is undefined in main.go."},
					{Role: "tool", Text: "Remember the style guide."},
					{Role: "tool", Text: "extension note"},
					{Role: "tool", Text: "Tried renaming loadConfig back."},
					{Role: "user", Text: "ok, define loadConfig in config.go"},
				},
				Cut:      6,
				Response: "1. Primary Request and Intent: make build fails with undefined: loadConfig.",
				Summary:  str("1. Primary Request and Intent: make build fails with undefined: loadConfig."),
			}},
			stats: Stats{
				Format: "pi", Lines: 11, Messages: 7, Compactions: 1,
				Skipped: map[string]int{"image block": 1, "thinking block": 1},
				Unknown: map[string]int{"fancy_new_entry": 1, "role hologram": 1},
			},
		},
	} {
		t.Run(tc.file, func(t *testing.T) {
			got, st := readFixture(t, readPi, tc.file)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ReadPiSession(%s) mismatch (-want +got), %s:\n%s", tc.file, tc.reason, diff)
			}
			if diff := cmp.Diff(tc.stats, st); diff != "" {
				t.Errorf("ReadPiSession(%s) stats mismatch (-want +got):\n%s", tc.file, diff)
			}
		})
	}
}

func TestReadClaudeCode(t *testing.T) {
	got, st := readFixture(t, readClaude, "claude/transcript.jsonl")
	first := "This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\nSummary:\n1. Primary Request and Intent: fix the flaky TestExpiry in pkg/cache/cache_test.go.\n8. Current Work: switching the test to `clock.NewFake()`."
	second := "Second summary: `WithTTL` option added to pkg/cache."
	want := []Input{
		{
			ID: "claude/transcript.jsonl#compaction-1", Source: "claude/transcript.jsonl:14",
			Conversation: []corpus.Message{
				{Role: "user", Text: "Fix the flaky test in pkg/cache/cache_test.go"},
				{Role: "assistant", Text: "Running the test 20 times.", ToolCalls: []corpus.ToolCall{{ID: "toolu_1", Name: "Bash", Input: `{"command":"go test ./pkg/cache/ -run TestExpiry -count=20","description":"Run the flaky test"}`}}},
				{Role: "tool", ToolCallID: "toolu_1", Text: "--- FAIL: TestExpiry (0.01s)\n    cache_test.go:41: entry expired early"},
				{Role: "user", Text: "Use a fake clock instead of time.Sleep"},
				{Role: "assistant", Text: "Switching the test to `clock.NewFake()`."},
			},
			Cut:      5,
			Response: first,
			Summary:  &first,
		},
		{
			ID: "claude/transcript.jsonl#compaction-2", Source: "claude/transcript.jsonl:18",
			Conversation: []corpus.Message{
				{Role: "user", Text: "Now make the expiry configurable"},
				{Role: "assistant", Text: "Adding a `WithTTL` option."},
			},
			Cut:             2,
			PreviousSummary: first,
			Response:        second,
			Summary:         &second,
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ReadClaudeCode mismatch (-want +got): the chain leaves out the sidechain and the rewound line, merges the streamed lines of msg_1 and stops at the previous compact summary:\n%s", diff)
	}
	wantStats := Stats{
		Format: "claude", Lines: 18, Messages: 10, Compactions: 2,
		Skipped: map[string]int{"file-history-snapshot": 1, "queue-operation": 1, "system": 2, "thinking block": 1, "user (sidechain)": 1},
		Unknown: map[string]int{"mystery-line": 1},
	}
	if diff := cmp.Diff(wantStats, st); diff != "" {
		t.Errorf("ReadClaudeCode stats mismatch (-want +got):\n%s", diff)
	}
}

func TestReadClaudeCodeWithoutUUIDs(t *testing.T) {
	// Lines without uuids (hand-trimmed transcripts) are taken in file order since the
	// previous compact summary.
	in := strings.Join([]string{
		`{"type":"user","message":{"role":"user","content":"first request"}}`,
		`{"type":"user","isCompactSummary":true,"message":{"role":"user","content":"summary one"}}`,
		`{"type":"user","message":{"role":"user","content":"second request"}}`,
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"done"}]}}`,
		`{"type":"user","isCompactSummary":true,"message":{"role":"user","content":"summary two"}}`,
	}, "\n")
	got, _, err := ReadClaudeCode(strings.NewReader(in), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || len(got[1].Conversation) != 2 || got[1].PreviousSummary != "summary one" || got[1].Conversation[0].Text != "second request" {
		t.Errorf("ReadClaudeCode without uuids = %+v; want two inputs, the second with the 2 messages after summary one", got)
	}
}

func TestReadMalformedLine(t *testing.T) {
	// Both agents skip a line they cannot parse and load the rest; so do the readers,
	// with a warning naming file:line. Before, the whole file was rejected.
	pi := func(r *strings.Reader, n string) ([]Input, Stats, error) { return ReadPiSession(r, n) }
	claude := func(r *strings.Reader, n string) ([]Input, Stats, error) { return ReadClaudeCode(r, n) }
	for _, tc := range []struct {
		name, in string
		read     func(*strings.Reader, string) ([]Input, Stats, error)
		line     int
		inputs   int
		reason   string
	}{
		{"pi", "{\"type\":\"session\",\"version\":3,\"id\":\"x\"}\n\n{\"type\":\"message\",\"id\":\"a\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n{\"type\":\"message\",\"id\":\"b\",", pi, 4, 0, "a truncated last line, after a blank line that still counts"},
		{"pi-content", "{\"type\":\"session\",\"version\":3,\"id\":\"x\"}\n{\"type\":\"message\",\"id\":\"a\",\"message\":{\"role\":\"user\",\"content\":42}}", pi, 2, 0, "content that is neither a string nor blocks"},
		{"pi-two-entries", "{\"type\":\"session\",\"version\":3,\"id\":\"x\"}\n" +
			"{\"type\":\"message\",\"id\":\"a\",\"parentId\":null,\"message\":{\"role\":\"user\",\"content\":\"fix the export job\"}}\n" +
			"{\"type\":\"message\",\"id\":\"b\",\"parentId\":\"a\",\"message\":{\"role\":\"assistant\",\"content\":\"ok\"}}{\"type\":\"label\",\"id\":\"l\"}\n" +
			"{\"type\":\"compaction\",\"id\":\"c\",\"parentId\":\"a\",\"summary\":\"s\",\"firstKeptEntryId\":\"a\",\"tokensBefore\":1}", pi, 3, 1, "two entries written on one line: the compaction after it still loads"},
		{"claude", "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\nnot json\n{\"type\":\"user\",\"isCompactSummary\":true,\"message\":{\"role\":\"user\",\"content\":\"s\"}}", claude, 2, 1, "a line that is not JSON"},
		{"claude-no-type", "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n{\"uuid\":\"x\"}\n", claude, 2, 0, "a line without a type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ins, st, err := tc.read(strings.NewReader(tc.in), "bad.jsonl")
			if err != nil {
				t.Fatalf("read(%s) error = %v; want the line skipped (%s)", tc.name, err, tc.reason)
			}
			want := fmt.Sprintf("bad.jsonl:%d: ", tc.line)
			if st.Malformed != 1 || len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], want) {
				t.Errorf("read(%s) Malformed = %d, Warnings = %q; want one warning naming %s (%s)", tc.name, st.Malformed, st.Warnings, want, tc.reason)
			}
			if len(ins) != tc.inputs {
				t.Errorf("read(%s) = %d inputs, want %d", tc.name, len(ins), tc.inputs)
			}
		})
	}
}

func TestReadClaudeCodeBrokenChain(t *testing.T) {
	// A chain whose parent is in no line covered only the messages after the break,
	// silently; now the lines since the previous summary are read in file order, and a
	// note says so.
	in := strings.Join([]string{
		`{"type":"user","message":{"role":"user","content":"first request about the exporter"}}`,
		`{"type":"assistant","message":{"role":"assistant","content":"looking"}}`,
		`{"type":"user","uuid":"u3","parentUuid":"gone","message":{"role":"user","content":"second request"}}`,
		`{"type":"user","uuid":"s","parentUuid":"u3","isCompactSummary":true,"message":{"role":"user","content":"summary"}}`,
	}, "\n")
	got, st, err := ReadClaudeCode(strings.NewReader(in), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || len(got[0].Conversation) != 3 {
		t.Fatalf("ReadClaudeCode(broken chain) = %+v; want one input with all 3 messages", got)
	}
	if len(st.Notes) != 1 || !strings.Contains(st.Notes[0], "t.jsonl:4: ") || !strings.Contains(st.Notes[0], "file order") {
		t.Errorf("notes = %q; want one at t.jsonl:4 saying the file order is read", st.Notes)
	}
}

func TestReadPiSessionNotASession(t *testing.T) {
	_, _, err := ReadPiSession(strings.NewReader(`{"type":"user","message":{}}`), "cc.jsonl")
	if !errors.Is(err, ErrNotSession) {
		t.Errorf("ReadPiSession of a Claude Code line = %v; want ErrNotSession", err)
	}
}

func TestReadPiSessionFirstKeptMissing(t *testing.T) {
	// A first kept entry off the branch leaves the cut unknown: Score computes it.
	in := strings.Join([]string{
		`{"type":"session","version":3,"id":"x"}`,
		`{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":"hello there"}}`,
		`{"type":"compaction","id":"c","parentId":"a","summary":"s","firstKeptEntryId":"gone","tokensBefore":1}`,
	}, "\n")
	ins, st, err := ReadPiSession(strings.NewReader(in), "m.jsonl")
	if err != nil || len(ins) != 1 || ins[0].Cut != -1 || len(st.Notes) != 1 || !strings.HasPrefix(st.Notes[0], "m.jsonl:3: ") {
		t.Fatalf("ReadPiSession = %+v, %+v, %v; want one input with Cut -1 and a note at m.jsonl:3", ins, st, err)
	}
	if r := Score(ins[0], Options{}); !r.BoundaryComputed || r.Cut != 0 {
		t.Errorf("Score = cut %d, computed %v; want the boundary computed (0: everything fits in the kept tail)", r.Cut, r.BoundaryComputed)
	}
}

func TestDetectFormat(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
		reason   string
	}{
		{`{"type":"session","version":3,"id":"x"}`, FormatPi, true, "a pi header"},
		{"\n" + `{"type":"queue-operation","sessionId":"s"}`, FormatClaudeCode, true, "a Claude Code first line, after a blank one"},
		{`{"parentUuid":null,"type":"user","message":{}}`, FormatClaudeCode, true, "a Claude Code user line"},
		{"not json\n" + `{"type":"assistant"}`, FormatClaudeCode, true, "an unreadable first line does not decide"},
		{`{"foo":1}`, "", false, "JSON of neither format"},
		{``, "", false, "an empty file"},
	} {
		got, ok := DetectFormat([]byte(tc.in))
		if got != tc.want || ok != tc.ok {
			t.Errorf("DetectFormat(%q) = %q, %v; want %q, %v (%s)", tc.in, got, ok, tc.want, tc.ok, tc.reason)
		}
	}
}

func TestStatsString(t *testing.T) {
	st := Stats{Format: "pi", Lines: 3, Messages: 2, Compactions: 1, Skipped: map[string]int{"label": 1, "custom": 2}, Unknown: map[string]int{"x": 1}}
	want := "pi: 3 lines, 2 messages, 1 compactions; skipped custom 2, label 1; unknown x 1"
	if got := st.String(); got != want {
		t.Errorf("Stats.String() = %q, want %q", got, want)
	}
}
