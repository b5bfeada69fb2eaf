package eval

import (
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/compacteval/compacteval/corpus"
)

// Fact kinds. Path, identifier, error, command, url, tool-id, quantity, state, tool-call,
// request and probe facts make up coverage; constraint and fake-user-turn items belong to
// their own measures.
const (
	KindPath         = "path"
	KindIdentifier   = "identifier"
	KindError        = "error"
	KindCommand      = "command"
	KindURL          = "url"
	KindRequest      = "request"
	KindProbe        = "probe"
	KindConstraint   = "constraint"
	KindFakeUserTurn = "fake-user-turn"
)

// Caps per message, so that one pasted log or command list cannot outweigh the rest of
// the conversation.
const (
	maxErrorsPerMessage   = 5
	maxCommandsPerMessage = 8
	maxRequestWords       = 40
)

// Fact is one thing a summary of the conversation should hold.
type Fact struct {
	Kind string `json:"kind"`
	// Text is the fact as first written (for a request, the opening of the message).
	Text string `json:"text"`
	// Message is the index of the first message the fact occurs in (in a result's lists,
	// the first one in the part that list is about); -1 for the previous summary.
	Message int `json:"message"`
	// Weight is how much the fact counts in the weighted measures and the score: 1 +
	// ln(N/n) over the N messages before the cut that hold a fact, n of which hold this
	// one. It is 0 (and left out of the JSON) for a fact that is not counted so, such as
	// a fact of the kept tail or a constraint.
	Weight float64 `json:"weight,omitempty"`

	key    string   // normalized form matched against the summary
	alt    string   // identifiers: the last dotted part, when it is shaped on its own
	alts   []string // errors: the message from its last marker, and after its last colon
	plain  bool     // identifiers: a plain word, matched only when written as code
	prefix bool     // tool ids: a commit hash, keyed by its first 7 digits
	words  []string // requests: content words
	in     []int    // messages the fact occurs in, ascending
	strong bool     // occurs somewhere outside tool output
}

// Messages returns the index of every message the fact occurs in, ascending.
func (f Fact) Messages() []int { return f.in }

// Facts returns the facts of a conversation and its probes, sorted by the message they
// first occur in, then kind and text. The package documentation gives the rules.
func Facts(msgs []corpus.Message, probes []corpus.Probe) []Fact {
	var s factSet
	for i, m := range msgs {
		s.message(i, m)
	}
	for _, p := range probes {
		if key := normText(p.Fact); key != "" {
			s.add(KindProbe, key, p.Fact, p.Message, true)
		}
	}
	return s.facts()
}

// textFacts returns the facts of a text that is no message, such as a previous summary.
func textFacts(text string) []Fact {
	var s factSet
	s.prose(-1, text, true)
	return s.facts()
}

type factSet struct {
	byKey map[string]*Fact
	list  []*Fact
	// per-message counters for the caps
	msg, errors, commands, quants, statesN int
	// todos holds the last status of each to-do item, by key
	todos map[string]string
	// reads holds the ids of the tool calls that read a file; readOutput is set while the
	// output of one is read.
	reads      map[string]bool
	readOutput bool
}

func (s *factSet) add(kind, key, text string, msg int, strong bool) *Fact {
	if s.byKey == nil {
		s.byKey = map[string]*Fact{}
	}
	k := kind + "\x00" + key
	f := s.byKey[k]
	if f == nil {
		f = &Fact{Kind: kind, Text: text, Message: msg, key: key}
		s.byKey[k] = f
		s.list = append(s.list, f)
	}
	if n := len(f.in); n == 0 || f.in[n-1] < msg {
		f.in = append(f.in, msg)
	} else if f.in[n-1] > msg { // probes may name an earlier message
		f.in = append(f.in, msg)
		sort.Ints(f.in)
		f.Message = f.in[0]
	}
	f.strong = f.strong || strong
	return f
}

// facts returns the facts that occur somewhere outside tool output, sorted.
func (s *factSet) facts() []Fact {
	out := make([]Fact, 0, len(s.list))
	for _, f := range s.list {
		if f.strong {
			out = append(out, *f)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := &out[i], &out[j]
		if a.Message != b.Message {
			return a.Message < b.Message
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.key < b.key
	})
	return out
}

func (s *factSet) message(i int, m corpus.Message) {
	s.msg, s.errors, s.commands, s.quants, s.statesN = i, 0, 0, 0, 0
	s.readOutput = m.Role == corpus.RoleTool && s.reads[m.ToolCallID]
	switch m.Role {
	case corpus.RoleUser:
		s.prose(i, m.Text, true)
		s.request(i, m.Text)
	case corpus.RoleAssistant:
		s.prose(i, m.Text, true)
		for _, tc := range m.ToolCalls {
			if tc.ID != "" && readsFile(tc) {
				if s.reads == nil {
					s.reads = map[string]bool{}
				}
				s.reads[tc.ID] = true
			}
			s.toolCall(i, tc)
		}
	default:
		// Tool output and other context: errors count, "$ " commands are occurrences of
		// commands said elsewhere; its names and paths are not read, a summary cannot hold
		// every name of every file read. The error lines of a file read (log calls, notes)
		// are the file's text, not what happened: they count only where the session says
		// them again, or another tool prints them.
		s.lines(i, m.Text, false)
	}
}

// readsFile reports whether a tool call reads a file: a read tool (Read, read_file,
// view, ...), or an editor tool asked to view.
func readsFile(tc corpus.ToolCall) bool {
	switch n := strings.ToLower(tc.Name); n {
	case "read", "read_file", "readfile", "view", "view_file", "notebookread", "open_file", "read_many_files":
		return true
	default:
		if strings.Contains(n, "edit") {
			var v struct{ Command string }
			return json.Unmarshal([]byte(tc.Input), &v) == nil && v.Command == "view"
		}
	}
	return false
}

// slashCommand is a slash command typed at the start of a line or inside a tag
// (<command-name>/compact</command-name>): no path.
var slashCommand = regexp.MustCompile(`(?m)(^|>)([ \t]*)/[A-Za-z][A-Za-z0-9_-]*([\s<]|$)`)

// withoutMarkup returns text without what looks like a path and is not: closing tags
// (</div> would give /div) and slash commands.
func withoutMarkup(text string) string {
	if strings.Contains(text, "</") {
		text = strings.ReplaceAll(text, "</", "< ")
	}
	if strings.Contains(text, "/") {
		text = slashCommand.ReplaceAllString(text, "$1$2$3")
	}
	return text
}

// prose extracts every kind of fact but requests from free text.
func (s *factSet) prose(i int, text string, strong bool) {
	s.lines(i, text, strong)
	scanChunks(withoutMarkup(text), func(chunk string, call bool) {
		s.chunk(i, chunk, call, strong)
	})
	s.quantities(i, text, strong)
	s.states(i, text, strong)
}

// chunk classifies one chunk of text: a URL, a path, or an identifier.
func (s *factSet) chunk(i int, c string, call, strong bool) {
	if j := strings.Index(c, "://"); j > 0 {
		if key, shown, ok := urlKey(c, j); ok {
			s.add(KindURL, key, shown, i, strong)
		}
		return
	}
	for c != "" {
		part := c
		if j := strings.IndexByte(c, '='); j >= 0 {
			part, c = c[:j], c[j+1:]
		} else {
			c = ""
		}
		s.plainChunk(i, part, call && c == "", strong)
	}
}

func (s *factSet) plainChunk(i int, c string, call, strong bool) {
	c = trimChunk(c)
	if c == "" {
		return
	}
	if key, sure, ok := pathCandidate(c, false); ok && !call {
		s.add(KindPath, key, c, i, strong && sure)
		return
	}
	if strings.Contains(c, "/") {
		return
	}
	if key, ok := commitHash(c); ok {
		s.add(KindToolID, key, c, i, strong).prefix = true
		return
	}
	if key, ok := issueRef(c); ok {
		s.add(KindToolID, key, c, i, strong)
		return
	}
	if id, ok := identifier(c, call); ok {
		f := s.add(KindIdentifier, id.key, c, i, strong)
		f.alt, f.plain = id.alt, id.plain
	}
}

// request adds a user message as a fact of its own, matched by its content words.
func (s *factSet) request(i int, text string) {
	words := contentWords(text, maxRequestWords)
	if len(words) == 0 {
		return // "yes", "go on": nothing a summary could be checked for
	}
	f := s.add(KindRequest, "message "+strconv.Itoa(i), opening(text, 100), i, true)
	f.words = words
}

// toolCall extracts facts from a tool call's input: the named fields of a JSON input
// (paths, URLs, commands), the definitions in code it writes, and the rest as prose.
func (s *factSet) toolCall(i int, tc corpus.ToolCall) {
	in := strings.TrimSpace(tc.Input)
	if strings.HasPrefix(in, "{") {
		var v map[string]any
		if json.Unmarshal([]byte(in), &v) == nil {
			s.jsonArgs(i, tc.Name, v)
			return
		}
	}
	if isShellTool(tc.Name) {
		for _, line := range scriptLines(in) {
			s.command(i, line, true)
		}
		return
	}
	s.prose(i, in, true)
}

func (s *factSet) jsonArgs(i int, tool string, v map[string]any) {
	s.todo(i, tool, v)
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch x := v[k].(type) {
		case string:
			s.jsonString(i, tool, strings.ToLower(k), x)
		case float64:
			if id, ok := numberArg(strings.ToLower(k), x); ok {
				s.add(KindToolID, id, id, i, true)
			}
		case map[string]any:
			s.jsonArgs(i, tool, x)
		case []any:
			for _, e := range x {
				switch e := e.(type) {
				case string:
					s.jsonString(i, tool, strings.ToLower(k), e)
				case map[string]any:
					s.jsonArgs(i, tool, e)
				}
			}
		}
	}
}

func (s *factSet) jsonString(i int, tool, key, val string) {
	if k, words, ok := toolCallArg(tool, key, val); ok {
		f := s.add(KindToolCall, k, tool+"("+opening(val, 80)+")", i, true)
		if f.words = words; words == nil {
			f.alt = k[strings.IndexByte(k, ' ')+1:]
			return
		}
	}
	switch {
	case pathFields[key]:
		if p, ok := pathKey(trimChunk(val), true); ok {
			s.add(KindPath, p, val, i, true)
		}
	case key == "url" || key == "uri" || key == "href":
		if j := strings.Index(val, "://"); j > 0 {
			if k, shown, ok := urlKey(val, j); ok {
				s.add(KindURL, k, shown, i, true)
			}
		}
	case toolIDKey(key, val):
		id, _ := toolIDArg(key, val)
		s.add(KindToolID, id, val, i, true)
	case key == "command" || key == "cmd" || key == "script":
		for _, line := range scriptLines(val) {
			s.command(i, line, true)
		}
	case codeFields[key]:
		// Code the assistant writes: its definitions count, not every name it uses.
		for _, name := range definitions(val) {
			if id, ok := identifier(name, true); ok {
				f := s.add(KindIdentifier, id.key, name, i, true)
				f.alt, f.plain = id.alt, id.plain
			}
		}
	default:
		s.prose(i, val, true)
	}
}

func toolIDKey(key, val string) bool {
	_, ok := toolIDArg(key, val)
	return ok
}

var pathFields = map[string]bool{
	"path": true, "file_path": true, "filepath": true, "file": true, "filename": true,
	"notebook_path": true, "target_file": true, "directory": true, "dir": true, "cwd": true,
	"source": true, "destination": true, "old_path": true, "new_path": true, "paths": true,
}

var codeFields = map[string]bool{
	"content": true, "contents": true, "new_string": true, "old_string": true, "new_str": true,
	"old_str": true, "patch": true, "diff": true, "code": true, "file_text": true,
	"insert_text": true, "text": true, "newtext": true, "oldtext": true, "replacement": true,
}

// scriptLines returns the lines of a shell script that start a command: not the body of
// a here-document (cat <<'EOF' ... EOF) or the continuation of a quoted string that spans
// lines (git commit -m "subject<newline>body"), whose lines are text, not commands.
func scriptLines(script string) []string {
	var out []string
	heredoc := ""
	var quote byte
	for _, line := range strings.Split(script, "\n") {
		if heredoc != "" {
			if strings.TrimSpace(line) == heredoc {
				heredoc = ""
			}
			continue
		}
		if quote == 0 {
			out = append(out, line)
		}
		quote = openQuote(line, quote)
		if j := strings.Index(line, "<<"); j >= 0 && !strings.HasPrefix(line[j:], "<<<") {
			w := strings.TrimLeft(line[j+2:], "- ")
			if f := strings.Fields(w); len(f) > 0 {
				if word := strings.Trim(f[0], `'"`+")"); word != "" && (isLetter(word[0]) || word[0] == '_') {
					heredoc = word
				}
			}
		}
	}
	return out
}

// openQuote returns the quote still open at the end of line, given the one open at its start.
func openQuote(line string, quote byte) byte {
	for j := 0; j < len(line); j++ {
		j, quote, _ = quoteStep(line, j, quote)
	}
	return quote
}

// quoteStep reads the shell quoting at line[j], given the quote open before it: it returns
// the position of the last byte it consumed (an escape takes two), the quote open after it,
// and whether the byte was quoting (inside quotes, a quote mark or a backslash), which
// nothing else is to read.
func quoteStep(line string, j int, quote byte) (int, byte, bool) {
	switch c := line[j]; {
	case quote != 0:
		if c == quote {
			quote = 0
		} else if c == '\\' && quote == '"' {
			j++
		}
	case c == '\'' || c == '"':
		quote = c
	case c == '\\':
		j++
	default:
		return j, quote, false
	}
	return j, quote, true
}

func isShellTool(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case "sh", "zsh", "terminal", "exec", "execute", "run", "run_command", "command", "cmd", "powershell", "execute_command":
		return true
	}
	return strings.Contains(n, "bash") || strings.Contains(n, "shell")
}

// urlKey normalizes the URL whose "://" is at sep in c: lowercase, without the scheme, a
// leading www., the fragment and a trailing slash.
func urlKey(c string, sep int) (key, shown string, ok bool) {
	start := sep
	for start > 0 && isSchemeByte(c[start-1]) {
		start--
	}
	if sep-start < 2 {
		return "", "", false
	}
	shown = strings.TrimRight(c[start:], ".,:;!?")
	rest := shown[sep-start+3:]
	if j := strings.IndexByte(rest, '#'); j >= 0 {
		rest = rest[:j]
	}
	rest = strings.TrimSuffix(strings.TrimPrefix(strings.ToLower(rest), "www."), "/")
	if j := strings.IndexByte(rest, '?'); j >= 0 && (strings.Contains(rest[j:], "[redacted") || strings.HasSuffix(rest, "=")) {
		rest = rest[:j] // a redacted credential in the query is no part of the fact
	}
	if len(rest) < 4 || !strings.ContainsAny(rest, "./") {
		return "", "", false
	}
	return rest, shown, true
}

func isSchemeByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '+'
}

// definitions returns the names that definition keywords introduce in code: def, func
// (after a Go receiver), function, fn, class, struct, interface, trait, enum and type.
func definitions(code string) []string {
	var names []string
	fields := strings.Fields(code)
	for j := 0; j+1 < len(fields); j++ {
		if !defKeywords[fields[j]] {
			continue
		}
		next := fields[j+1]
		if fields[j] == "func" && strings.HasPrefix(next, "(") { // Go method receiver
			for k := j + 1; k < len(fields); k++ {
				if strings.Contains(fields[k], ")") {
					if k+1 < len(fields) {
						next = fields[k+1]
					}
					break
				}
			}
		}
		if end := strings.IndexAny(next, "(<:{[ "); end >= 0 {
			next = next[:end]
		}
		if len(next) >= 3 {
			names = append(names, next)
		}
	}
	return names
}

var defKeywords = map[string]bool{
	"def": true, "func": true, "function": true, "fn": true, "class": true, "struct": true,
	"interface": true, "trait": true, "enum": true, "type": true,
}

// opening returns the start of s with whitespace collapsed, at most n bytes, cut at a
// rune boundary.
func opening(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
