package recordtest

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// FakeModel is a deterministic model for tests of a prompt change: it writes its summary
// from the conversation it is sent and follows the instruction, as far as a small model
// would. It serves OpenAI's chat completions (POST /v1/chat/completions) and Anthropic's
// Messages (POST /v1/messages) for any model name.
//
// What it reads of the instruction, and nothing else:
//
//   - the numbered section headings ("8. Current Work: ..."), outside <example> blocks:
//     it writes those sections, in that order, and no other (none: one free paragraph);
//   - the kept-tail note ("the final N messages ... Do not summarize them"): with it, the
//     summary covers the messages before those N; without it, the whole conversation,
//     so that its Current Work re-tells what the agent keeps anyway;
//   - a request for summaries twice as long ("twice as long", "double the detail"): it
//     then writes twice as much of each kind (fakeReading.Detail).
//
// What it writes comes from the conversation: the user's messages (quoted), and from every
// message its names (paths, identifiers), the commands its tool calls ran and its error
// lines, never a whole line of an assistant or tool message (eval does not credit copied
// lines). A section's content depends on its title, in English or French: Current Work
// lists the last four messages summarized, Next Step the last user request, and so on; a
// title that merges two sections gets the content of both.
//
// BreakRate of the answers have broken tags, the way small models break them: half of those
// open the summary on the same line as its first heading (<summary>1. ...: the seed's loose
// match still finds it, a line-anchored one does not), half never close it. Which answers
// break is decided by a hash of what the fake reads and of how many times it has been asked
// the same thing, so a run is reproducible, and two instructions that differ only in what
// the fake does not read get the same answers.
//
// Noise makes the samples of one request differ in content, as a model's do: each answer
// leaves out that share of the items it would write (the lines below a section heading),
// each at random, and swaps that share of neighbouring items. What is left out is decided
// by the same hash as the tags, so a run stays reproducible. Seed changes every answer's
// draw: two fakes with different seeds are two runs of a model.
type FakeModel struct {
	// BreakRate is the share of answers with broken tags, 0 to 1.
	BreakRate float64
	// Noise is the share of items each answer leaves out, 0 to 1; 0 writes every item in
	// order, the same answer for every sample.
	Noise float64
	// Seed is mixed into every draw; 0 gives the draws of a fake without one.
	Seed uint64

	mu    sync.Mutex
	asked map[[32]byte]int
	calls int
}

// Calls returns how many requests the fake has answered.
func (f *FakeModel) Calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

// ServeHTTP answers one request.
func (f *FakeModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	anthropic := r.URL.Path == "/v1/messages"
	if r.Method != http.MethodPost || !anthropic && r.URL.Path != "/v1/chat/completions" {
		writeError(w, anthropic, Reply{Status: http.StatusNotFound, ErrType: "not_found_error", ErrMessage: "no route " + r.Method + " " + r.URL.Path})
		return
	}
	raw, _ := io.ReadAll(r.Body)
	var body struct {
		Model string `json:"model"`
	}
	rep := f.reply(raw)
	if err := json.Unmarshal(raw, &body); err != nil || rep.Status != 0 {
		writeError(w, anthropic, rep)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(answer(body.Model, map[string]any{}, rep, anthropic))
}

// Reply is the fake's answer to a request's JSON body, for a Server's Respond (which serves
// the batch APIs too): the same answer ServeHTTP gives.
func (f *FakeModel) Reply(body []byte) Reply { return f.reply(body) }

// reply answers the JSON body of a request. Its prompt tokens are the messages' decoded
// text / 4, the same however the client encoded them (a batch file escapes <, > and &).
func (f *FakeModel) reply(raw []byte) Reply {
	var body struct {
		Messages json.RawMessage `json:"messages"`
	}
	var wire []fakeWireMsg
	if json.Unmarshal(raw, &body) != nil || json.Unmarshal(body.Messages, &wire) != nil || len(wire) == 0 {
		return Reply{Status: http.StatusBadRequest, ErrType: "invalid_request_error", ErrMessage: "no messages"}
	}
	msgs := make([]fakeMsg, len(wire))
	size := 0
	for i, m := range wire {
		msgs[i] = m.decode()
		size += len(msgs[i].Text)
	}
	instruction := msgs[len(msgs)-1].Text
	text := f.summarize(msgs[:len(msgs)-1], instruction)
	return Reply{Text: text, PromptTokens: max(size/4, 1)}
}

// fakeMsg is a message as the fake reads it: its role (user, assistant or tool) and its
// text, tool calls written out.
type fakeMsg struct {
	Role string `json:"role"`
	Text string `json:"text"`
}

// fakeWireMsg is a message of either API.
type fakeWireMsg struct {
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	ToolCalls []struct {
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

func (m fakeWireMsg) decode() fakeMsg {
	out := fakeMsg{Role: m.Role}
	var parts []string
	var s string
	var blocks []struct {
		Type    string          `json:"type"`
		Text    string          `json:"text"`
		Name    string          `json:"name"`
		Input   json.RawMessage `json:"input"`
		Content json.RawMessage `json:"content"`
	}
	switch {
	case json.Unmarshal(m.Content, &s) == nil:
		parts = append(parts, s)
	case json.Unmarshal(m.Content, &blocks) == nil:
		results := 0
		for _, b := range blocks {
			switch b.Type {
			case "text":
				parts = append(parts, b.Text)
			case "tool_use":
				parts = append(parts, "$ "+argText(b.Input))
			case "tool_result":
				results++
				var rs string
				if json.Unmarshal(b.Content, &rs) != nil {
					rs = string(b.Content)
				}
				parts = append(parts, rs)
			}
		}
		if results == len(blocks) && results > 0 {
			out.Role = "tool"
		}
	}
	for _, tc := range m.ToolCalls {
		parts = append(parts, "$ "+argText(json.RawMessage(tc.Function.Arguments)))
	}
	out.Text = strings.Join(parts, "\n")
	return out
}

// argText returns a tool call's arguments as a command line: the string values of a JSON
// object, or the text itself.
func argText(raw json.RawMessage) string {
	var obj map[string]any
	if json.Unmarshal(raw, &obj) != nil {
		return string(raw)
	}
	var vals []string
	for _, k := range sortedKeys(obj) {
		if s, ok := obj[k].(string); ok {
			vals = append(vals, s)
		}
	}
	return strings.Join(vals, " ")
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

var (
	fakeExample = regexp.MustCompile(`(?s)<example>.*?</example>`)
	fakeHeading = regexp.MustCompile(`(?m)^[ \t]*(\d{1,2})\.[ \t]+([A-Z][^:.\n]{0,50}):`)
	fakeTail    = regexp.MustCompile(`final (\d+) messages?\b`)
	fakeNoTell  = regexp.MustCompile(`(?i)do not (summarize|re-tell|retell|repeat) them`)
	fakeDouble  = regexp.MustCompile(`(?i)\b(twice|double)\b[^.\n]{0,40}\b(long|length|detail)`)
)

// fakeReading is what the fake reads of an instruction.
type fakeReading struct {
	Headings []string `json:"headings"`
	// Tail is the number of final messages not to summarize; 0 without a kept-tail note.
	Tail int `json:"tail"`
	// Detail is 2 where the instruction asks for summaries twice as long ("twice as
	// long", "double the detail"), 0 otherwise (read as 1, and left out of what the fake
	// hashes, so other answers stay as they were): the fake then writes twice as much of
	// each kind (quotes, names, the messages of Current Work).
	Detail int `json:"detail,omitempty"`
}

func readInstruction(instruction string) fakeReading {
	var r fakeReading
	seen := map[string]bool{}
	for _, m := range fakeHeading.FindAllStringSubmatch(fakeExample.ReplaceAllString(instruction, ""), -1) {
		h := m[1] + ". " + strings.TrimSpace(m[2])
		if !seen[h] {
			seen[h] = true
			r.Headings = append(r.Headings, h)
		}
	}
	if fakeDouble.MatchString(instruction) {
		r.Detail = 2
	}
	if m := fakeTail.FindStringSubmatch(instruction); m != nil && fakeNoTell.MatchString(instruction) {
		fmt.Sscan(m[1], &r.Tail)
	}
	return r
}

// summarize returns the fake's answer to a conversation and the instruction that follows it.
// It counts as a call: asking the same thing again may break the tags differently.
func (f *FakeModel) summarize(msgs []fakeMsg, instruction string) string {
	reading := readInstruction(instruction)
	data, _ := json.Marshal(struct {
		Msgs    []fakeMsg   `json:"msgs"`
		Reading fakeReading `json:"reading"`
	}{msgs, reading})
	read := sha256.Sum256(data)
	f.mu.Lock()
	if f.asked == nil {
		f.asked = map[[32]byte]int{}
	}
	n := f.asked[read]
	f.asked[read]++
	f.calls++
	f.mu.Unlock()
	key := append(read[:], byte(n), byte(n>>8))
	if f.Seed != 0 {
		key = binary.BigEndian.AppendUint64(key, f.Seed)
	}
	seed := sha256.Sum256(key)
	roll := float64(binary.BigEndian.Uint64(seed[:8])>>11) / (1 << 53)
	broken := roll < f.BreakRate
	var noise *rand.Rand
	if f.Noise > 0 {
		noise = rand.New(rand.NewPCG(binary.BigEndian.Uint64(seed[16:24]), binary.BigEndian.Uint64(seed[24:32])))
	}
	return writeAnswer(msgs, reading, broken, seed[8]%2 == 0, noise, f.Noise)
}

// writeAnswer writes the analysis and the summary; broken breaks the summary's tags,
// inline choosing how. With a noise source, each item is left out with probability share
// and each pair of neighbouring items that remains is swapped with probability share.
func writeAnswer(msgs []fakeMsg, reading fakeReading, broken, inline bool, noise *rand.Rand, share float64) string {
	scope := msgs
	if reading.Tail > 0 && reading.Tail < len(msgs) {
		scope = msgs[:len(msgs)-reading.Tail]
	}
	var body strings.Builder
	if len(reading.Headings) == 0 {
		body.WriteString("Summary of the conversation:\n")
		writeDigest(&body, scope, "", max(reading.Detail, 1))
	}
	for i, h := range reading.Headings {
		if i > 0 {
			body.WriteString("\n")
		}
		body.WriteString(h + ":\n")
		writeSection(&body, strings.ToLower(h), scope, max(reading.Detail, 1))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<analysis>\nI read %d messages and summarize %d of them.\n</analysis>\n\n", len(msgs), len(scope))
	text := strings.TrimRight(body.String(), "\n")
	if noise != nil {
		text = shake(text, noise, share)
	}
	switch {
	case broken && inline:
		b.WriteString("<summary>" + text + "\n</summary>\n")
	case broken:
		b.WriteString("<summary>\n" + text + "\n")
	default:
		b.WriteString("<summary>\n" + text + "\n</summary>\n")
	}
	return b.String()
}

// shake leaves out and swaps items of a summary body: its lines that are not a heading
// (a line that starts without a space and ends in a colon).
func shake(text string, r *rand.Rand, share float64) string {
	lines := strings.Split(text, "\n")
	out := make([]string, 0, len(lines))
	item := func(l string) bool { return l != "" && !(l[0] != ' ' && strings.HasSuffix(l, ":")) }
	for _, l := range lines {
		if item(l) && r.Float64() < share {
			continue
		}
		out = append(out, l)
	}
	for i := 1; i < len(out); i++ {
		if item(out[i-1]) && item(out[i]) && r.Float64() < share {
			out[i-1], out[i] = out[i], out[i-1]
			i++ // a line moves at most once
		}
	}
	return strings.Join(out, "\n")
}

// writeSection writes the content of the section whose lowercased heading is h: each
// kind of content its title asks for, in a fixed order, so that a title merging two
// sections ("errors, fixes and problem solving") gets both. It reads titles in English
// and, as a model would, in French (fakeFrench).
func writeSection(b *strings.Builder, h string, scope []fakeMsg, d int) {
	for _, fr := range fakeFrench {
		h = strings.ReplaceAll(h, fr[0], fr[1])
	}
	users := byRole(scope, "user")
	wrote := false
	for _, k := range fakeKinds {
		if !k.asked(h) {
			continue
		}
		wrote = true
		switch k.name {
		case "user messages":
			for _, m := range users {
				b.WriteString("   - " + words(m.Text, 40*d) + "\n")
			}
		case "request":
			if len(users) > 0 {
				b.WriteString("   " + words(users[0].Text, 40*d) + "\n")
			}
		case "current work":
			writeDigest(b, scope[max(len(scope)-4*d, 0):], "   ", d)
		case "next step":
			if len(users) > 0 {
				b.WriteString("   Continue with: \"" + words(users[len(users)-1].Text, 15*d) + "\"\n")
			}
		case "pending":
			if len(users) > 1 {
				b.WriteString("   - " + words(users[len(users)-1].Text, 20*d) + "\n")
			}
		case "concepts":
			writeList(b, "names", names(scope, false, d))
		case "files":
			writeList(b, "files", names(scope, true, d))
		case "errors":
			for _, m := range scope {
				for _, e := range errorLines(m.Text, d) {
					b.WriteString("   - error: " + e + "\n")
				}
			}
		case "problems":
			for _, m := range scope {
				for _, c := range commands(m.Text, d) {
					b.WriteString("   - ran " + c + "\n")
				}
			}
		}
	}
	if !wrote {
		b.WriteString("   (nothing to add)\n")
	}
}

// fakeKind is a kind of content a section title can ask for: the title holds one of its
// words and none of unless's ("All user messages" asks for the messages, not a request).
type fakeKind struct {
	name          string
	words, unless []string
}

func (k fakeKind) asked(h string) bool {
	for _, u := range k.unless {
		if strings.Contains(h, u) {
			return false
		}
	}
	for _, w := range k.words {
		if strings.Contains(h, w) {
			return true
		}
	}
	return false
}

// fakeKinds are the kinds of content, in the order a merged section writes them.
var fakeKinds = []fakeKind{
	{name: "user messages", words: []string{"user message"}},
	{name: "request", words: []string{"request", "intent"}, unless: []string{"user message"}},
	{name: "current work", words: []string{"current work"}},
	{name: "next step", words: []string{"next step"}},
	{name: "pending", words: []string{"pending"}},
	{name: "concepts", words: []string{"concept"}},
	{name: "files", words: []string{"file", "code"}},
	{name: "errors", words: []string{"error"}},
	{name: "problems", words: []string{"problem"}},
}

// fakeFrench reads the nine titles in French.
var fakeFrench = [][2]string{
	{"demande principale", "request"}, {"concepts techniques", "concept"}, {"fichiers", "file"},
	{"erreurs", "error"}, {"résolution de problèmes", "problem"}, {"messages de l'utilisateur", "user message"},
	{"tâches en attente", "pending"}, {"travail en cours", "current work"}, {"prochaine étape", "next step"},
}

// writeDigest writes what the fake takes from each message: a user's words, the names,
// commands and errors of the others.
func writeDigest(b *strings.Builder, msgs []fakeMsg, indent string, d int) {
	for _, m := range msgs {
		if m.Role == "user" {
			b.WriteString(indent + "- the user asked: " + words(m.Text, 40*d) + "\n")
			continue
		}
		if ns := append(names([]fakeMsg{m}, true, d), names([]fakeMsg{m}, false, d)...); len(ns) > 0 {
			b.WriteString(indent + "- " + m.Role + " touched " + strings.Join(ns, ", ") + "\n")
		}
		for _, c := range commands(m.Text, d) {
			b.WriteString(indent + "- ran " + c + "\n")
		}
		for _, e := range errorLines(m.Text, d) {
			b.WriteString(indent + "- error: " + e + "\n")
		}
	}
}

func writeList(b *strings.Builder, what string, items []string) {
	if len(items) == 0 {
		b.WriteString("   (no " + what + ")\n")
		return
	}
	for _, it := range items {
		b.WriteString("   - " + it + "\n")
	}
}

func byRole(msgs []fakeMsg, role string) []fakeMsg {
	var out []fakeMsg
	for _, m := range msgs {
		if m.Role == role && strings.TrimSpace(m.Text) != "" {
			out = append(out, m)
		}
	}
	return out
}

// words returns the first n words of s on one line.
func words(s string, n int) string {
	f := strings.Fields(s)
	return strings.Join(f[:min(n, len(f))], " ")
}

// names returns the distinct paths (paths true) or identifiers of msgs, at most 40 times d: tokens
// with a slash or a file extension, or with an underscore, an inner capital or a dot
// between letters.
func names(msgs []fakeMsg, paths bool, d int) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range msgs {
		for _, tok := range strings.Fields(m.Text) {
			tok = strings.Trim(tok, "`'\",;:()[]{}<>!?*")
			tok = strings.TrimRight(tok, ".")
			if len(tok) < 3 || seen[tok] || strings.Contains(tok, "://") {
				continue
			}
			isPath := strings.Contains(tok, "/") || strings.Contains(tok, ".") && fakeFile.MatchString(tok)
			isIdent := !isPath && (strings.Contains(tok, "_") || innerCapital(tok) || strings.Contains(tok, "."))
			if paths && isPath || !paths && isIdent {
				seen[tok] = true
				out = append(out, tok)
			}
		}
	}
	return out[:min(len(out), 40*d)]
}

func innerCapital(s string) bool {
	for i, r := range s {
		if i > 0 && unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// commands returns the commands of a message's tool calls ("$ " lines), six words each (times d).
func commands(text string, d int) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if c, ok := strings.CutPrefix(strings.TrimSpace(l), "$ "); ok && strings.TrimSpace(c) != "" {
			out = append(out, words(c, 6*d))
		}
	}
	return out
}

var (
	fakeError = regexp.MustCompile(`(?i)\berror\b|FAIL|panic:|undefined:`)
	fakeFile  = regexp.MustCompile(`^[\w-]+\.[a-z]{1,4}$`)
)

// mayBeError reports whether l holds, in any case, a word fakeError looks for (its (?i)
// covers every alternative): most lines hold none, and the regular expression is slow on
// them. None of the words has a letter whose case folds outside ASCII.
func mayBeError(l string) bool {
	lower := strings.ToLower(l)
	return strings.Contains(lower, "error") || strings.Contains(lower, "fail") ||
		strings.Contains(lower, "panic:") || strings.Contains(lower, "undefined:")
}

// errorLines returns a message's error lines, eight words each, at most three (times d).
func errorLines(text string, d int) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if len(out) < 3*d && mayBeError(l) && fakeError.MatchString(l) {
			out = append(out, words(l, 8*d))
		}
	}
	return out
}
