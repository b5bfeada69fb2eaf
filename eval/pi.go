package eval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/compacteval/compacteval/corpus"
)

// piEntry is one line of a pi session: the header, a message, a compaction, or an entry
// this package only counts.
type piEntry struct {
	Type     string  `json:"type"`
	ID       string  `json:"id"`
	ParentID *string `json:"parentId"`
	Version  int     `json:"version"`

	Message *piMessage `json:"message"`

	// compaction (and branch_summary for Summary)
	Summary             string `json:"summary"`
	FirstKeptEntryID    string `json:"firstKeptEntryId"`
	FirstKeptEntryIndex *int   `json:"firstKeptEntryIndex"` // version 1
	TokensBefore        int    `json:"tokensBefore"`

	// custom_message
	Content json.RawMessage `json:"content"`

	line int
	msg  *corpus.Message // the message the entry puts in context, if any
}

type piMessage struct {
	Role               string          `json:"role"`
	Content            json.RawMessage `json:"content"`
	ToolCallID         string          `json:"toolCallId"`
	Command            string          `json:"command"`
	Output             string          `json:"output"`
	ExcludeFromContext bool            `json:"excludeFromContext"`
	Summary            string          `json:"summary"`
}

type piBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// piSkipped are the entry types that hold no message for the model.
var piSkipped = set("model_change", "thinking_level_change", "custom", "label", "session_info")

// ReadPiSession reads a pi session file (JSONL, versions 1 to 3, as pi-mono's
// packages/coding-agent/docs/session.md describes them) and returns one input per
// compaction entry, in file order. name is the file's name, used in ids, sources and
// errors.
//
// Each compaction is scored against what the model had in context when it was made: the
// previous compaction's summary (Input.PreviousSummary) and the entries on the
// compaction's branch from the previous compaction's first kept entry (the session start
// for the first compaction) up to the compaction; Cut is at this compaction's first kept
// entry. The stored summary is the one scored (Input.Summary): pi keeps it extracted.
//
// User messages become user messages, assistant text and tool calls assistant messages,
// tool results tool messages; bashExecution, custom and branch or compaction summary
// messages, custom_message and branch_summary entries become tool messages without a
// call, context the model saw but not the user's words. Thinking and image blocks are
// skipped. Unknown entry types and roles are counted in Stats and skipped. A line that does
// not parse (two entries written on one line) or holds content of the wrong shape is
// skipped, as pi skips it, and counted in Stats.Malformed with a FILE:LINE warning; only a
// first line that is no session header is an error. A compaction whose first kept entry is not on its branch gets Cut -1
// (Score computes the boundary) and a note.
func ReadPiSession(r io.Reader, name string) ([]Input, Stats, error) {
	st := Stats{Format: FormatPi}
	lines, err := readLines(r)
	if err != nil {
		return nil, st, fmt.Errorf("read %s: %w", name, err)
	}
	st.Lines = len(lines)
	if len(lines) == 0 {
		return nil, st, fmt.Errorf("%s: %w: empty file", name, ErrNotSession)
	}
	entries := make([]*piEntry, 0, len(lines))
	for i, l := range lines {
		e := &piEntry{line: l.n}
		if err := decodeLine(name, l, e); err != nil {
			if i == 0 {
				return nil, st, fmt.Errorf("%w: %w", ErrNotSession, err)
			}
			st.malformed(err) // pi skips a line it cannot parse and loads the rest
			continue
		}
		if i == 0 && e.Type != "session" {
			return nil, st, &LineError{name, l.n, fmt.Errorf("%w: the first entry has type %q, want session", ErrNotSession, e.Type)}
		}
		if i > 0 {
			if err := e.convert(&st); err != nil {
				st.malformed(&LineError{name, l.n, err})
				continue
			}
		}
		entries = append(entries, e)
	}
	version := max(entries[0].Version, 1)

	byID := map[string]int{}
	if version >= 2 {
		for i, e := range entries[1:] {
			if e.ID != "" {
				byID[e.ID] = i + 1
			}
		}
	}
	var inputs []Input
	for k, e := range entries {
		if e.Type != "compaction" {
			continue
		}
		st.Compactions++
		path := piBranch(entries, byID, k, version, name, &st)
		inputs = append(inputs, piInput(entries, byID, path, version, name, st.Compactions, &st))
	}
	return inputs, st, nil
}

// convert sets e.msg for entries that put a message in context, and counts the others.
func (e *piEntry) convert(st *Stats) error {
	switch e.Type {
	case "message":
		if e.Message == nil {
			st.unknown("message without a message")
			return nil
		}
		m, err := e.Message.toCorpus(st)
		if err != nil {
			return err
		}
		e.msg = m
	case "custom_message":
		text, err := textOf(e.Content, st)
		if err != nil {
			return fmt.Errorf("custom_message content: %v", err)
		}
		e.msg = &corpus.Message{Role: corpus.RoleTool, Text: text}
	case "branch_summary":
		e.msg = &corpus.Message{Role: corpus.RoleTool, Text: e.Summary}
	case "compaction":
	default:
		if piSkipped[e.Type] {
			st.skip(e.Type)
		} else {
			st.unknown(e.Type)
		}
	}
	if e.msg != nil {
		st.Messages++
	}
	return nil
}

func (m *piMessage) toCorpus(st *Stats) (*corpus.Message, error) {
	switch m.Role {
	case "user", "custom", "hookMessage", "toolResult":
		text, err := textOf(m.Content, st)
		if err != nil {
			return nil, fmt.Errorf("%s content: %v", m.Role, err)
		}
		switch m.Role {
		case "user":
			return &corpus.Message{Role: corpus.RoleUser, Text: text}, nil
		case "toolResult":
			return &corpus.Message{Role: corpus.RoleTool, ToolCallID: m.ToolCallID, Text: text}, nil
		}
		return &corpus.Message{Role: corpus.RoleTool, Text: text}, nil
	case "assistant":
		return piAssistant(m.Content, st)
	case "bashExecution":
		if m.ExcludeFromContext {
			st.skip("bashExecution excluded from context")
			return nil, nil
		}
		return &corpus.Message{Role: corpus.RoleTool, Text: "$ " + m.Command + "\n" + m.Output}, nil
	case "branchSummary", "compactionSummary":
		return &corpus.Message{Role: corpus.RoleTool, Text: m.Summary}, nil
	}
	st.unknown("role " + m.Role)
	return nil, nil
}

func piAssistant(raw json.RawMessage, st *Stats) (*corpus.Message, error) {
	m := &corpus.Message{Role: corpus.RoleAssistant}
	if len(raw) > 0 && raw[0] == '"' {
		if err := json.Unmarshal(raw, &m.Text); err != nil {
			return nil, fmt.Errorf("assistant content: %v", err)
		}
		return m, nil
	}
	var blocks []piBlock
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &blocks); err != nil {
			return nil, fmt.Errorf("assistant content: %v", err)
		}
	}
	var text bytes.Buffer
	for _, b := range blocks {
		switch b.Type {
		case "text":
			if text.Len() > 0 {
				text.WriteByte('\n')
			}
			text.WriteString(b.Text)
		case "toolCall":
			m.ToolCalls = append(m.ToolCalls, corpus.ToolCall{ID: b.ID, Name: b.Name, Input: compactJSON(b.Arguments)})
		case "thinking", "redacted_thinking", "image":
			st.skip(b.Type + " block")
		default:
			st.unknown(b.Type + " block")
		}
	}
	m.Text = text.String()
	return m, nil
}

// compactJSON returns raw JSON without insignificant whitespace, as JSON.stringify writes
// it; "" for none.
func compactJSON(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// piBranch returns the indexes of the entries from the session start to entry k on k's
// branch: the parentId chain in version 2 and later, file order in version 1.
func piBranch(entries []*piEntry, byID map[string]int, k, version int, name string, st *Stats) []int {
	if version < 2 {
		path := make([]int, 0, k)
		for i := 1; i <= k; i++ {
			path = append(path, i)
		}
		return path
	}
	var rev []int
	seen := map[int]bool{}
	for i := k; ; {
		if seen[i] {
			st.note(name, entries[k].line, "parentId cycle; branch cut at line %d", entries[i].line)
			break
		}
		seen[i] = true
		rev = append(rev, i)
		p := entries[i].ParentID
		if p == nil || *p == "" {
			break
		}
		j, ok := byID[*p]
		if !ok {
			st.note(name, entries[i].line, "parentId %q names no entry; branch starts here", *p)
			break
		}
		i = j
	}
	path := make([]int, len(rev))
	for i, x := range rev {
		path[len(rev)-1-i] = x
	}
	return path
}

// piInput builds the input of the compaction that ends path.
func piInput(entries []*piEntry, byID map[string]int, path []int, version int, name string, n int, st *Stats) Input {
	c := entries[path[len(path)-1]]
	pos := func(e *piEntry) int { // position in path of e's first kept entry, or -1
		target := -1
		if version < 2 {
			if e.FirstKeptEntryIndex != nil {
				target = *e.FirstKeptEntryIndex
			}
		} else if i, ok := byID[e.FirstKeptEntryID]; ok {
			target = i
		}
		for p, i := range path {
			if i == target && target > 0 {
				return p
			}
		}
		return -1
	}
	start, prevSummary := 0, ""
	for p := len(path) - 2; p >= 0; p-- {
		prev := entries[path[p]]
		if prev.Type != "compaction" {
			continue
		}
		prevSummary = prev.Summary
		start = pos(prev)
		if start < 0 {
			start = p + 1
		}
		break
	}
	kept := pos(c)
	cut := -1
	var conv []corpus.Message
	for p := start; p < len(path)-1; p++ {
		if p == kept {
			cut = len(conv)
		}
		if e := entries[path[p]]; e.msg != nil {
			conv = append(conv, *e.msg)
		}
	}
	if kept >= 0 && kept < start {
		cut = 0
	}
	if cut < 0 {
		st.note(name, c.line, "the first kept entry is not on the compaction's branch; boundary computed as pi does")
	}
	summary := c.Summary
	return Input{
		ID:              fmt.Sprintf("%s#compaction-%d", name, n),
		Source:          fmt.Sprintf("%s:%d", name, c.line),
		Conversation:    conv,
		Cut:             cut,
		PreviousSummary: prevSummary,
		Response:        summary,
		Summary:         &summary,
	}
}
