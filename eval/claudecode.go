package eval

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/compacteval/compacteval/corpus"
)

// ccLine is one line of a Claude Code transcript.
type ccLine struct {
	Type              string     `json:"type"`
	Subtype           string     `json:"subtype"`
	UUID              string     `json:"uuid"`
	ParentUUID        *string    `json:"parentUuid"`
	LogicalParentUUID string     `json:"logicalParentUuid"`
	IsSidechain       bool       `json:"isSidechain"`
	IsMeta            bool       `json:"isMeta"`
	IsCompactSummary  bool       `json:"isCompactSummary"`
	Message           *ccMessage `json:"message"`

	line int
	msgs []corpus.Message // the messages the line holds
}

type ccMessage struct {
	ID      string          `json:"id"`
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type ccBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
}

func (l *ccLine) boundary() bool { return l.Type == "system" && l.Subtype == "compact_boundary" }

// ReadClaudeCode reads a Claude Code transcript (JSONL: lines of type user, assistant,
// system, ...; message.content a string or blocks of text, thinking, tool_use and
// tool_result) and returns one input per compact summary: a user line with
// isCompactSummary set, whose text replaced the conversation before it. name is the file's
// name, used in ids, sources and errors.
//
// The conversation of a compact summary is the chain of parentUuid links that leads to
// it, from the compact_boundary line's logicalParentUuid back to the previous compact
// summary (whose text becomes Input.PreviousSummary); rewound branches off the chain are
// left out. Without uuids the lines since the previous compact summary are taken in file
// order. Claude Code keeps no tail, so Cut is the length of the conversation.
//
// Tool results become tool messages (text next to them in the same line is appended to
// them: it comes from the harness, not the user); consecutive assistant lines of one API
// message are merged. Sidechain (subagent) and meta lines, thinking and image blocks are
// skipped and counted, as are line types that hold no message; unknown types are counted
// in Stats.Unknown. A line that does not parse, has no type or holds content of the wrong
// shape is skipped, as Claude Code skips it, and counted in Stats.Malformed with a
// FILE:LINE warning. Where no chain leads to a summary, or the chain breaks (a parent
// that is in no line), the lines since the previous summary are read in file order and a
// note says so.
func ReadClaudeCode(r io.Reader, name string) ([]Input, Stats, error) {
	st := Stats{Format: FormatClaudeCode}
	raw, err := readLines(r)
	if err != nil {
		return nil, st, fmt.Errorf("read %s: %w", name, err)
	}
	st.Lines = len(raw)
	lines := make([]*ccLine, 0, len(raw))
	byUUID := map[string]int{}
	for _, l := range raw {
		cl := &ccLine{line: l.n}
		if err := decodeLine(name, l, cl); err != nil {
			st.malformed(err) // Claude Code skips a line it cannot parse
			continue
		}
		if cl.Type == "" {
			st.malformed(&LineError{name, l.n, errors.New(`no "type" field`)})
			continue
		}
		if err := cl.convert(&st); err != nil {
			st.malformed(&LineError{name, l.n, err})
			continue
		}
		if cl.UUID != "" {
			byUUID[cl.UUID] = len(lines)
		}
		lines = append(lines, cl)
	}
	if len(lines) == 0 {
		return nil, st, fmt.Errorf("%s: %w: no line of a Claude Code transcript", name, ErrNotSession)
	}
	var inputs []Input
	prev := -1 // the previous compact summary line
	for k, cl := range lines {
		if !cl.IsCompactSummary || cl.IsSidechain || cl.Message == nil {
			continue
		}
		st.Compactions++
		summary, err := textOf(cl.Message.Content, &st)
		if err != nil {
			return nil, st, &LineError{name, cl.line, fmt.Errorf("compact summary content: %v", err)}
		}
		chain, prevSummary, ok := ccChain(lines, byUUID, k)
		if ok && chain[0] > prev+1 && broken(lines, byUUID, chain[0]) {
			st.note(name, cl.line, "the parentUuid chain breaks at line %d (its parent is in no line); read in file order since the previous compaction", lines[chain[0]].line)
			ok = false
		} else if !ok {
			st.note(name, cl.line, "no parentUuid chain leads to this compact summary; read in file order since the previous compaction")
		}
		if !ok {
			chain, prevSummary = nil, ""
			for i := prev + 1; i < k; i++ {
				chain = append(chain, i)
			}
			if prev >= 0 {
				prevSummary, _ = textOf(lines[prev].Message.Content, &Stats{})
			}
		}
		var conv []corpus.Message
		lastID := ""
		for _, i := range chain {
			l := lines[i]
			for _, m := range l.msgs {
				id := ""
				if l.Message != nil && m.Role == corpus.RoleAssistant {
					id = l.Message.ID
				}
				if n := len(conv); n > 0 && id != "" && id == lastID && conv[n-1].Role == corpus.RoleAssistant {
					conv[n-1].Text = joinText(conv[n-1].Text, m.Text)
					conv[n-1].ToolCalls = append(conv[n-1].ToolCalls, m.ToolCalls...)
					continue
				}
				conv = append(conv, m)
				lastID = id
			}
		}
		inputs = append(inputs, Input{
			ID:              fmt.Sprintf("%s#compaction-%d", name, st.Compactions),
			Source:          fmt.Sprintf("%s:%d", name, cl.line),
			Conversation:    conv,
			Cut:             len(conv),
			PreviousSummary: prevSummary,
			Response:        summary,
			Summary:         &summary,
		})
		prev = k
	}
	return inputs, st, nil
}

// broken reports whether the chain that starts at line i starts there because its parent
// is missing, not because it is the first line or follows a compaction.
func broken(lines []*ccLine, byUUID map[string]int, i int) bool {
	p := lines[i].ParentUUID
	if p == nil || *p == "" {
		return false
	}
	_, found := byUUID[*p]
	return !found
}

// ccChain returns the lines on the parentUuid chain that leads to the compact summary at
// k, oldest first, and the text of the compact summary the chain starts after. ok is false
// when the lines carry no chain to follow.
func ccChain(lines []*ccLine, byUUID map[string]int, k int) (chain []int, prevSummary string, ok bool) {
	cur := ""
	if p := lines[k].ParentUUID; p != nil && *p != "" {
		cur = *p
		if i, found := byUUID[cur]; found && lines[i].boundary() {
			cur = lines[i].LogicalParentUUID
		}
	} else {
		for i := k - 1; i >= 0 && i >= k-3; i-- { // the boundary line just before it
			if lines[i].boundary() {
				cur = lines[i].LogicalParentUUID
				break
			}
		}
	}
	if cur == "" {
		return nil, "", false
	}
	var rev []int
	seen := map[int]bool{}
	for cur != "" {
		i, found := byUUID[cur]
		if !found || seen[i] {
			break
		}
		seen[i] = true
		l := lines[i]
		if l.IsCompactSummary {
			if l.Message != nil {
				prevSummary, _ = textOf(l.Message.Content, &Stats{})
			}
			break
		}
		if l.boundary() {
			break
		}
		rev = append(rev, i)
		cur = ""
		if l.ParentUUID != nil {
			cur = *l.ParentUUID
		}
	}
	if len(rev) == 0 {
		return nil, "", false
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev, prevSummary, true
}

// convert sets l.msgs and counts what the line holds.
func (l *ccLine) convert(st *Stats) error {
	switch l.Type {
	case "user", "assistant":
	default:
		if claudeTypes[l.Type] {
			st.skip(l.Type)
		} else {
			st.unknown(l.Type)
		}
		return nil
	}
	switch {
	case l.Message == nil:
		st.unknown(l.Type + " without a message")
		return nil
	case l.IsCompactSummary:
		return nil
	case l.IsSidechain:
		st.skip(l.Type + " (sidechain)")
		return nil
	case l.IsMeta:
		st.skip(l.Type + " (meta)")
		return nil
	}
	raw := l.Message.Content
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return fmt.Errorf("%s content: %v", l.Type, err)
		}
		role := corpus.RoleUser
		if l.Type == "assistant" {
			role = corpus.RoleAssistant
		}
		l.msgs = []corpus.Message{{Role: role, Text: s}}
		st.Messages++
		return nil
	}
	var blocks []ccBlock
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &blocks); err != nil {
			return fmt.Errorf("%s content: %v", l.Type, err)
		}
	}
	if l.Type == "assistant" {
		m := corpus.Message{Role: corpus.RoleAssistant}
		for _, b := range blocks {
			switch b.Type {
			case "text":
				m.Text = joinText(m.Text, b.Text)
			case "tool_use", "server_tool_use":
				m.ToolCalls = append(m.ToolCalls, corpus.ToolCall{ID: b.ID, Name: b.Name, Input: compactJSON(b.Input)})
			case "thinking", "redacted_thinking":
				st.skip(b.Type + " block")
			default:
				st.unknown(b.Type + " block")
			}
		}
		l.msgs = []corpus.Message{m}
		st.Messages++
		return nil
	}
	var text []string
	for _, b := range blocks {
		switch b.Type {
		case "tool_result":
			out, err := textOf(b.Content, st)
			if err != nil {
				return fmt.Errorf("tool_result content: %v", err)
			}
			l.msgs = append(l.msgs, corpus.Message{Role: corpus.RoleTool, ToolCallID: b.ToolUseID, Text: out})
		case "text":
			text = append(text, b.Text)
		case "image", "document":
			st.skip(b.Type + " block")
		default:
			st.unknown(b.Type + " block")
		}
	}
	joined := strings.Join(text, "\n")
	switch {
	case len(l.msgs) > 0 && joined != "":
		last := &l.msgs[len(l.msgs)-1]
		last.Text = joinText(last.Text, joined)
	case len(l.msgs) == 0:
		l.msgs = []corpus.Message{{Role: corpus.RoleUser, Text: joined}}
	}
	st.Messages += len(l.msgs)
	return nil
}

func joinText(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}
