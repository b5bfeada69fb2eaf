package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Session formats, as DetectFormat names them.
const (
	FormatCorpus     = "corpus"
	FormatPi         = "pi"
	FormatClaudeCode = "claude"
)

// LineError is a problem with one line of a session file.
type LineError struct {
	File string
	Line int // 1-based
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err) }

func (e *LineError) Unwrap() error { return e.Err }

// ErrNotSession is wrapped by the readers' errors when a file is not in their format.
var ErrNotSession = errors.New("not a session file")

// Stats counts what a session reader read and left out.
type Stats struct {
	Format string `json:"format"`
	// Lines counts the non-blank lines; Messages the messages read from them.
	Lines       int `json:"lines"`
	Messages    int `json:"messages"`
	Compactions int `json:"compactions"`
	// Skipped counts known entries that hold no message for the model (model changes,
	// labels, thinking blocks, sidechains, ...) by kind; Unknown counts entry types and
	// message roles the reader does not know. Neither is an error.
	Skipped map[string]int `json:"skipped,omitempty"`
	Unknown map[string]int `json:"unknown,omitempty"`
	// Notes are FILE:LINE: remarks about what the reader worked around.
	Notes []string `json:"notes,omitempty"`
	// Malformed counts the lines skipped because they do not parse (or hold content of
	// the wrong shape), as pi and Claude Code skip them; Warnings name each FILE:LINE.
	Malformed int      `json:"malformed,omitempty"`
	Warnings  []string `json:"warnings,omitempty"`
}

// malformed records a line skipped for err.
func (s *Stats) malformed(err error) {
	s.Malformed++
	s.Warnings = append(s.Warnings, "skipped malformed line: "+err.Error())
}

func (s *Stats) skip(kind string) {
	if s.Skipped == nil {
		s.Skipped = map[string]int{}
	}
	s.Skipped[kind]++
}

func (s *Stats) unknown(kind string) {
	if s.Unknown == nil {
		s.Unknown = map[string]int{}
	}
	s.Unknown[kind]++
}

func (s *Stats) note(file string, line int, format string, args ...any) {
	s.Notes = append(s.Notes, fmt.Sprintf("%s:%d: ", file, line)+fmt.Sprintf(format, args...))
}

// SkippedTotal returns the number of entries skipped, known or not.
func (s Stats) SkippedTotal() (known, unknown int) {
	for _, n := range s.Skipped {
		known += n
	}
	for _, n := range s.Unknown {
		unknown += n
	}
	return known, unknown
}

// String describes the counts in one line, kinds sorted.
func (s Stats) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d lines, %d messages, %d compactions", s.Format, s.Lines, s.Messages, s.Compactions)
	if s.Malformed > 0 {
		fmt.Fprintf(&b, ", %d malformed lines skipped", s.Malformed)
	}
	for _, part := range []struct {
		name string
		m    map[string]int
	}{{"skipped", s.Skipped}, {"unknown", s.Unknown}} {
		if len(part.m) == 0 {
			continue
		}
		kinds := make([]string, 0, len(part.m))
		for k := range part.m {
			kinds = append(kinds, k)
		}
		sort.Strings(kinds)
		fmt.Fprintf(&b, "; %s", part.name)
		for i, k := range kinds {
			sep := ","
			if i == 0 {
				sep = ""
			}
			fmt.Fprintf(&b, "%s %s %d", sep, k, part.m[k])
		}
	}
	return b.String()
}

// jsonLine is one non-blank line of a JSONL file.
type jsonLine struct {
	n    int // 1-based line number
	data []byte
}

// readLines reads r and returns its non-blank lines, without a UTF-8 BOM or "\r" endings.
func readLines(r io.Reader) ([]jsonLine, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	data = bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
	var lines []jsonLine
	for n := 1; len(data) > 0; n++ {
		line := data
		if j := bytes.IndexByte(data, '\n'); j >= 0 {
			line, data = data[:j], data[j+1:]
		} else {
			data = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) > 0 {
			lines = append(lines, jsonLine{n, line})
		}
	}
	return lines, nil
}

// decodeLine decodes one line into v, reporting a syntax error with the line number.
func decodeLine(file string, l jsonLine, v any) error {
	if err := json.Unmarshal(l.data, v); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return &LineError{file, l.n, fmt.Errorf("malformed JSON at byte %d: %v", syn.Offset, err)}
		}
		return &LineError{file, l.n, fmt.Errorf("unexpected JSON: %v", err)}
	}
	return nil
}

// DetectFormat tells a pi session (a first line of type "session") from a Claude Code
// transcript (lines of type user, assistant, system, summary, ...) by the first five
// non-blank lines of data; ok is false when it cannot tell.
func DetectFormat(data []byte) (format string, ok bool) {
	lines, _ := readLines(bytes.NewReader(data))
	for i, l := range lines {
		if i == 5 {
			break
		}
		var head struct {
			Type       string          `json:"type"`
			SessionID  string          `json:"sessionId"`
			ParentUUID json.RawMessage `json:"parentUuid"`
		}
		if json.Unmarshal(l.data, &head) != nil {
			continue
		}
		switch {
		case i == 0 && head.Type == "session":
			return FormatPi, true
		case claudeTypes[head.Type], head.SessionID != "", head.ParentUUID != nil:
			return FormatClaudeCode, true
		}
	}
	return "", false
}

// claudeTypes are the line types of Claude Code transcripts this package knows.
var claudeTypes = set("user", "assistant", "system", "summary", "file-history-snapshot", "queue-operation", "progress", "attachment")

// textOf returns the text of a content field that is a string or an array of blocks with
// "text" (joined by newlines), and counts the other block types in st.
func textOf(raw json.RawMessage, st *Stats) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	if raw[0] == '"' {
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return "", err
	}
	var parts []string
	for _, b := range blocks {
		switch b.Type {
		case "text":
			parts = append(parts, b.Text)
		case "image", "thinking", "redacted_thinking", "document":
			st.skip(b.Type + " block")
		default:
			st.unknown(b.Type + " block")
		}
	}
	return strings.Join(parts, "\n"), nil
}
