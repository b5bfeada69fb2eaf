package eval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// go test -run '^$' -bench Score200kTokens -benchmem ./eval

// BenchmarkScore200kTokens scores a generated pi session of about 200,000 estimated tokens
// (800 KB) with one compaction: "read+score" reads the JSONL and scores it, "score" scores
// the conversation already read.
func BenchmarkScore200kTokens(b *testing.B) {
	session := generatedSession(200_000)
	ins, _, err := ReadPiSession(bytes.NewReader(session), "bench.jsonl")
	if err != nil || len(ins) != 1 {
		b.Fatalf("ReadPiSession = %d inputs, %v; want 1", len(ins), err)
	}
	tokens := 0
	for _, m := range ins[0].Conversation {
		tokens += EstimateTokens(m)
	}
	b.Logf("%d bytes, %d messages, %d estimated tokens, cut at %d", len(session), len(ins[0].Conversation), tokens, ins[0].Cut)
	b.Run("read+score", func(b *testing.B) {
		b.SetBytes(int64(len(session)))
		for b.Loop() {
			ins, _, err := ReadPiSession(bytes.NewReader(session), "bench.jsonl")
			if err != nil {
				b.Fatal(err)
			}
			Score(ins[0], Options{})
		}
	})
	b.Run("score", func(b *testing.B) {
		for b.Loop() {
			Score(ins[0], Options{})
		}
	})
}

// generatedSession returns a pi session (version 3) of about tokens estimated tokens:
// turns of a user request, assistant tool calls (read, edit, bash) with file contents,
// test logs and errors as results, then one compaction that keeps pi's default tail and
// a summary in the nine sections. It depends on nothing but tokens.
func generatedSession(tokens int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	id := 0
	parent := ""
	write := func(e map[string]any) string {
		id++
		e["id"] = fmt.Sprintf("%08x", id)
		if parent != "" {
			e["parentId"] = parent
		} else {
			e["parentId"] = nil
		}
		e["timestamp"] = "2025-01-02T03:04:05.000Z"
		enc.Encode(e)
		parent = e["id"].(string)
		return parent
	}
	enc.Encode(map[string]any{"type": "session", "version": 3, "id": "bench", "timestamp": "2025-01-02T03:04:05.000Z", "cwd": "/home/dev/shop"})

	pkgs := []string{"billing", "orders", "catalog", "auth", "search", "inventory", "shipping", "reports"}
	verbs := []string{"load", "save", "validate", "render", "sync", "apply", "compute", "resolve"}
	nouns := []string{"Invoice", "Order", "Cart", "Token", "Query", "Stock", "Label", "Report"}
	name := func() string { return verbs[r.IntN(len(verbs))] + nouns[r.IntN(len(nouns))] }
	path := func() string {
		return fmt.Sprintf("internal/%s/%s_%d.go", pkgs[r.IntN(len(pkgs))], strings.ToLower(nouns[r.IntN(len(nouns))]), r.IntN(40))
	}
	code := func(lines int) string {
		var b strings.Builder
		for i := 0; i < lines; i++ {
			switch r.IntN(4) {
			case 0:
				fmt.Fprintf(&b, "func %s(ctx context.Context, id int64) (*%s, error) {\n", name(), nouns[r.IntN(len(nouns))])
			case 1:
				fmt.Fprintf(&b, "\tif err := s.%s(ctx, id); err != nil {\n\t\treturn nil, fmt.Errorf(\"%s: %%w\", err)\n\t}\n", name(), name())
			case 2:
				fmt.Fprintf(&b, "\t// %s keeps the %s cache warm for tenant_%d\n", name(), pkgs[r.IntN(len(pkgs))], r.IntN(100))
			default:
				fmt.Fprintf(&b, "\treturn &%s{ID: id, Total: %d}, nil\n}\n\n", nouns[r.IntN(len(nouns))], r.IntN(1000))
			}
		}
		return b.String()
	}
	total := 0
	var touched []string
	for turn := 0; total < tokens*4; turn++ {
		p := path()
		touched = append(touched, p)
		user := fmt.Sprintf("Next: %s in %s returns stale totals after a refund. Fix it and add a test; never run migrations against prod.", name(), p)
		write(map[string]any{"type": "message", "message": map[string]any{"role": "user", "content": user}})
		total += len(user)
		for step := 0; step < 6; step++ {
			callID := fmt.Sprintf("call_%d_%d", turn, step)
			var call map[string]any
			var result string
			switch step % 3 {
			case 0:
				call = map[string]any{"type": "toolCall", "id": callID, "name": "read", "arguments": map[string]any{"path": p}}
				result = code(60 + r.IntN(60))
			case 1:
				call = map[string]any{"type": "toolCall", "id": callID, "name": "edit", "arguments": map[string]any{"path": p, "oldText": code(3), "newText": code(5)}}
				result = "Edited " + p
			default:
				call = map[string]any{"type": "toolCall", "id": callID, "name": "bash", "arguments": map[string]any{"command": "go test ./internal/" + pkgs[r.IntN(len(pkgs))] + "/... -run Test" + name()}}
				result = fmt.Sprintf("--- FAIL: Test%s (0.02s)\n    %s:%d: got %d, want %d\nFAIL\nexit status 1", name(), p, r.IntN(300), r.IntN(99), r.IntN(99))
			}
			text := fmt.Sprintf("Looking at `%s` in %s: the refund path skips `%s`.", name(), p, name())
			write(map[string]any{"type": "message", "message": map[string]any{"role": "assistant", "content": []any{
				map[string]any{"type": "thinking", "thinking": "Consider the cache invalidation order."},
				map[string]any{"type": "text", "text": text},
				call,
			}}})
			write(map[string]any{"type": "message", "message": map[string]any{"role": "toolResult", "toolCallId": callID, "toolName": call["name"], "content": []any{map[string]any{"type": "text", "text": result}}, "isError": false}})
			args, _ := json.Marshal(call["arguments"])
			total += len(text) + len(call["name"].(string)) + len(args) + len(result)
		}
	}
	// Keep pi's default tail: the last entries worth 20,000 tokens, cut at a user message.
	lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
	kept, acc := "", 0
	for i := len(lines) - 1; i > 0 && acc < 4*DefaultKeepTokens; i-- {
		acc += len(lines[i])
		if bytes.Contains(lines[i], []byte(`"role":"user"`)) {
			var e struct{ ID string }
			json.Unmarshal(lines[i], &e)
			kept = e.ID
		}
	}
	var s strings.Builder
	for n, title := range SectionNames {
		fmt.Fprintf(&s, "%d. %s:\n", n+1, title)
		for k := 0; k < 12; k++ {
			p := touched[r.IntN(len(touched))]
			fmt.Fprintf(&s, "   - %s: `%s` returns stale totals after a refund; fixed `%s` and ran `go test ./internal/%s/...`.\n", p, name(), name(), pkgs[r.IntN(len(pkgs))])
		}
	}
	write(map[string]any{"type": "compaction", "summary": s.String(), "firstKeptEntryId": kept, "tokensBefore": tokens})
	return buf.Bytes()
}
