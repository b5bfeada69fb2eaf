package corpus

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/internal/textdiff"
	"go.yaml.in/yaml/v3"
)

// keySpec lists a mapping's keys: required ones, optional ones, and nested specs.
type keySpec struct {
	required []string
	optional []string
	nested   map[string]keySpec
}

var caseKeys = keySpec{
	required: []string{"version", "id", "title", "categories", "notes", "origin", "response", "intended"},
	optional: []string{"known_deviations", "conversation", "kept_tail", "probes", "summary_flaws"},
	nested: map[string]keySpec{
		"conversation": {
			required: []string{"role"},
			optional: []string{"text", "tool_calls", "tool_call_id"},
			nested: map[string]keySpec{
				"tool_calls": {required: []string{"id", "name", "input"}},
			},
		},
		"probes": {required: []string{"fact", "message"}},
		"origin": {
			required: []string{"kind"},
			optional: []string{"derived_from", "model", "provider", "date", "instruction_sha256", "parameters", "stop_reason", "truncated", "usage"},
		},
		"intended": {required: []string{"found"}, optional: []string{"summary"}},
	},
}

// checkKeys reports missing and unknown keys of a mapping node, with positions.
// A sequence is checked element by element.
func (p *parser) checkKeys(n *yaml.Node, prefix string, spec keySpec) {
	if n.Kind == yaml.SequenceNode {
		for i, e := range n.Content {
			p.checkKeys(e, fmt.Sprintf("%s[%d].", strings.TrimSuffix(prefix, "."), i), spec)
		}
		return
	}
	if n.Kind != yaml.MappingNode {
		return // the typed decode reports the wrong kind
	}
	present := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		present[k.Value] = v
		if !contains(spec.required, k.Value) && !contains(spec.optional, k.Value) {
			p.add(k.Line, k.Column, "unknown field %q%s", prefix+k.Value, suggest(k.Value, spec))
		}
		if sub, ok := spec.nested[k.Value]; ok {
			p.checkKeys(v, prefix+k.Value+".", sub)
		}
	}
	for _, k := range spec.required {
		if _, ok := present[k]; !ok {
			p.add(n.Line, n.Column, "missing field %q", prefix+k)
		}
	}
}

func suggest(key string, spec keySpec) string {
	for _, k := range append(append([]string{}, spec.required...), spec.optional...) {
		if editDistance(key, k) <= 2 {
			return " (did you mean " + k + "?)"
		}
	}
	return ""
}

func editDistance(a, b string) int { return textdiff.EditDistance(a, b) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// lookup returns the value node at a path of mapping keys and sequence indexes, or the
// nearest parent.
func lookup(n *yaml.Node, path ...string) *yaml.Node {
	for _, key := range path {
		if n.Kind == yaml.SequenceNode {
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(n.Content) {
				return n
			}
			n = n.Content[i]
			continue
		}
		if n.Kind != yaml.MappingNode {
			return n
		}
		found := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				n, found = n.Content[i+1], true
				break
			}
		}
		if !found {
			return n
		}
	}
	return n
}

var (
	datePattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	sha256Hex   = regexp.MustCompile(`^[0-9a-f]{64}$`)
	namePattern = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*(?:/[a-z0-9]+(?:-[a-z0-9]+)*)*$`)
)

// check reports what the YAML types cannot: values, cross-field rules and the id.
func (p *parser) check(c *Case, root *yaml.Node, wantID string) {
	at := func(path ...string) (int, int) {
		n := lookup(root, path...)
		return n.Line, n.Column
	}
	if c.Version != Version {
		l, col := at("version")
		p.add(l, col, "version is %d, this compacteval reads version %d", c.Version, Version)
	}
	if wantID != "" && c.ID != wantID {
		l, col := at("id")
		p.add(l, col, "id %q does not match the file's path: want %q", c.ID, wantID)
	}
	if !namePattern.MatchString(c.ID) {
		l, col := at("id")
		p.add(l, col, "id %q: use lowercase kebab-case parts separated by /", c.ID)
	}
	if strings.TrimSpace(c.Title) == "" || strings.Contains(c.Title, "\n") {
		l, col := at("title")
		p.add(l, col, "title must be one non-empty line")
	}
	if strings.TrimSpace(c.Notes) == "" {
		l, col := at("notes")
		p.add(l, col, "notes must say what trap the case sets")
	}
	p.checkBools(root)
	p.checkCategories(c, at)
	p.checkOrigin(c, at)
	p.checkIntended(c, at)
	p.checkConversation(c, at)
	for name, reason := range c.KnownDeviations {
		l, col := at("known_deviations", name)
		if _, ok := compact.Lookup(name); !ok {
			p.add(l, col, "known_deviations names unknown extractor %q (have %s)", name, strings.Join(compact.Names(), ", "))
		}
		if strings.TrimSpace(reason) == "" || strings.Contains(reason, "\n") {
			p.add(l, col, "known_deviations.%s needs a one-line reason", name)
		}
	}
}

// boolFields are the paths of the case's boolean fields.
var boolFields = [][]string{{"intended", "found"}, {"origin", "truncated"}}

// checkBools reports a boolean field written as anything but an unquoted true or false:
// yaml.v3 decodes the strings "yes", "on", "off" and the like into a bool, quoted or not,
// but a string is not a boolean.
func (p *parser) checkBools(root *yaml.Node) {
	for _, path := range boolFields {
		n := lookup(root, path...)
		if n == lookup(root, path[:len(path)-1]...) || n.Kind != yaml.ScalarNode || n.ShortTag() == "!!bool" {
			continue // absent, or the typed decode reports it
		}
		what := fmt.Sprintf("the string %q", n.Value)
		if n.ShortTag() != "!!str" {
			what = fmt.Sprintf("%q (%s), not a boolean", n.Value, strings.TrimPrefix(n.ShortTag(), "!!"))
		}
		p.add(n.Line, n.Column, "%s is %s: write true or false, unquoted", strings.Join(path, "."), what)
	}
}

func (p *parser) checkCategories(c *Case, at func(...string) (int, int)) {
	l, col := at("categories")
	if len(c.Categories) == 0 {
		p.add(l, col, "categories must name at least one of: %s", strings.Join(Categories, ", "))
		return
	}
	seen := map[string]bool{}
	for _, cat := range c.Categories {
		if !contains(Categories, cat) {
			p.add(l, col, "unknown category %q (have %s)", cat, strings.Join(Categories, ", "))
		}
		if seen[cat] {
			p.add(l, col, "category %q listed twice", cat)
		}
		seen[cat] = true
	}
	if folder, _, ok := strings.Cut(c.ID, "/"); ok && folder != c.Categories[0] {
		p.add(l, col, "the first category is %q but the case lives in folder %q", c.Categories[0], folder)
	}
}

func (p *parser) checkOrigin(c *Case, at func(...string) (int, int)) {
	o := c.Origin
	switch o.Kind {
	case Synthetic:
		for _, f := range []struct {
			key string
			set bool
		}{{"model", o.Model != ""}, {"provider", o.Provider != ""}, {"date", o.Date != ""},
			{"instruction_sha256", o.InstructionSHA256 != ""}, {"parameters", o.Parameters != nil},
			{"stop_reason", o.StopReason != ""}, {"truncated", o.Truncated}, {"usage", o.Usage != nil}} {
			if f.set {
				l, col := at("origin", f.key)
				p.add(l, col, "origin.%s belongs to recorded responses; this one is synthetic", f.key)
			}
		}
	case Recorded:
		for _, f := range []struct {
			key     string
			missing bool
		}{{"model", o.Model == ""}, {"provider", o.Provider == ""}, {"date", o.Date == ""},
			{"instruction_sha256", o.InstructionSHA256 == ""}, {"parameters", o.Parameters == nil}} {
			if f.missing {
				l, col := at("origin")
				p.add(l, col, "a recorded response needs origin.%s", f.key)
			}
		}
		if o.Date != "" && !datePattern.MatchString(o.Date) {
			l, col := at("origin", "date")
			p.add(l, col, "origin.date %q is not YYYY-MM-DD", o.Date)
		}
		if o.InstructionSHA256 != "" && !sha256Hex.MatchString(o.InstructionSHA256) {
			l, col := at("origin", "instruction_sha256")
			p.add(l, col, "origin.instruction_sha256 must be 64 lowercase hex digits")
		}
	default:
		l, col := at("origin", "kind")
		p.add(l, col, "origin.kind is %q, want synthetic or recorded", o.Kind)
	}
}

func (p *parser) checkIntended(c *Case, at func(...string) (int, int)) {
	in := c.Intended
	l, col := at("intended", "summary")
	switch {
	case !in.Found && in.Summary != "":
		p.add(l, col, "intended.summary is set but intended.found is false")
	case in.Found && in.Summary == "":
		l, col = at("intended")
		p.add(l, col, "intended.found is true but intended.summary is missing or empty")
	case in.Found && compact.TrimJS(in.Summary) != in.Summary:
		p.add(l, col, "intended.summary begins or ends with whitespace: a summary is trimmed")
	case !utf8.ValidString(in.Summary):
		p.add(l, col, "intended.summary is not valid UTF-8")
	}
}

// checkConversation checks the eval fields: roles, tool call references, the kept tail,
// probes (each fact must occur in its message) and summary flaws.
func (p *parser) checkConversation(c *Case, at func(...string) (int, int)) {
	if c.Conversation == nil {
		for _, key := range []string{"kept_tail", "probes", "summary_flaws"} {
			if n := lookup(p.root, key); n != p.root {
				p.add(n.Line, n.Column, "%s needs a conversation", key)
			}
		}
		return
	}
	if n := lookup(p.root, "summary_flaws"); n == p.root {
		l, col := at("conversation")
		p.add(l, col, "a case with a conversation needs summary_flaws: [] when the summary is complete, or the flaws a reader finds (%s)", strings.Join(SummaryFlawNames, ", "))
	}
	calls := map[string]bool{}
	for i, m := range c.Conversation {
		idx := strconv.Itoa(i)
		switch m.Role {
		case RoleUser, RoleAssistant:
			if m.ToolCallID != "" {
				l, col := at("conversation", idx, "tool_call_id")
				p.add(l, col, "conversation[%d]: only a tool message answers a tool call", i)
			}
		case RoleTool:
			if !calls[m.ToolCallID] {
				l, col := at("conversation", idx, "tool_call_id")
				p.add(l, col, "conversation[%d]: tool_call_id %q names no earlier tool call", i, m.ToolCallID)
			}
		default:
			l, col := at("conversation", idx, "role")
			p.add(l, col, "conversation[%d]: role %q, want user, assistant or tool", i, m.Role)
		}
		if len(m.ToolCalls) > 0 && m.Role != RoleAssistant {
			l, col := at("conversation", idx, "tool_calls")
			p.add(l, col, "conversation[%d]: only an assistant message makes tool calls", i)
		}
		for j, tc := range m.ToolCalls {
			if tc.ID == "" || calls[tc.ID] {
				l, col := at("conversation", idx, "tool_calls", strconv.Itoa(j), "id")
				p.add(l, col, "conversation[%d]: tool call id %q is empty or used twice", i, tc.ID)
			}
			calls[tc.ID] = true
		}
		if m.Text == "" && len(m.ToolCalls) == 0 {
			l, col := at("conversation", idx)
			p.add(l, col, "conversation[%d] is empty", i)
		}
	}
	if c.KeptTail < 0 || c.KeptTail >= len(c.Conversation) {
		l, col := at("kept_tail")
		p.add(l, col, "kept_tail is %d; want 0 to %d (the count of final messages kept, fewer than all %d)", c.KeptTail, len(c.Conversation)-1, len(c.Conversation))
	}
	for i, pr := range c.Probes {
		l, col := at("probes", strconv.Itoa(i))
		switch {
		case pr.Message < 0 || pr.Message >= len(c.Conversation):
			p.add(l, col, "probes[%d]: message %d is not in the conversation (0 to %d)", i, pr.Message, len(c.Conversation)-1)
		case strings.TrimSpace(pr.Fact) == "":
			p.add(l, col, "probes[%d]: empty fact", i)
		case !strings.Contains(strings.ToLower(messageText(c.Conversation[pr.Message])), strings.ToLower(pr.Fact)):
			p.add(l, col, "probes[%d]: fact %q does not occur in conversation[%d]", i, pr.Fact, pr.Message)
		}
	}
	for _, f := range c.SummaryFlaws {
		if !contains(SummaryFlawNames, f) {
			l, col := at("summary_flaws")
			p.add(l, col, "unknown summary flaw %q (have %s)", f, strings.Join(SummaryFlawNames, ", "))
		}
	}
}

// messageText is a message's text with its tool calls' inputs.
func messageText(m Message) string {
	s := m.Text
	for _, tc := range m.ToolCalls {
		s += "\n" + tc.Name + " " + tc.Input
	}
	return s
}
