package corpus

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"
)

// Format returns the canonical YAML of a case: fields in FORMAT.md's order, response and
// intended summary as literal blocks where a block holds them exactly, double-quoted with
// escapes otherwise. Parse(Format(c)) gives c back (File aside).
func Format(c *Case) ([]byte, error) {
	f := &formatter{}
	str, text := f.str, f.text
	root := mapping()
	add(root, "version", scalar(fmt.Sprint(c.Version), "!!int", 0))
	add(root, "id", str(c.ID))
	add(root, "title", str(c.Title))
	cats := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
	for _, cat := range c.Categories {
		cats.Content = append(cats.Content, str(cat))
	}
	add(root, "categories", cats)
	add(root, "notes", f.prose(c.Notes))
	origin := &yaml.Node{}
	if err := origin.Encode(c.Origin); err != nil {
		return nil, fmt.Errorf("format %s: %w", c.ID, err)
	}
	add(root, "origin", origin)
	add(root, "response", text(c.Response))
	intended := mapping()
	add(intended, "found", scalar(fmt.Sprint(c.Intended.Found), "!!bool", 0))
	if c.Intended.Found || c.Intended.Summary != "" {
		add(intended, "summary", text(c.Intended.Summary))
	}
	add(root, "intended", intended)
	if len(c.KnownDeviations) > 0 {
		dev := mapping()
		names := make([]string, 0, len(c.KnownDeviations))
		for name := range c.KnownDeviations {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			add(dev, name, str(c.KnownDeviations[name]))
		}
		add(root, "known_deviations", dev)
	}
	if c.Conversation != nil {
		conv := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, m := range c.Conversation {
			mn := mapping()
			add(mn, "role", str(m.Role))
			if m.ToolCallID != "" {
				add(mn, "tool_call_id", str(m.ToolCallID))
			}
			if m.Text != "" {
				add(mn, "text", text(m.Text))
			}
			if len(m.ToolCalls) > 0 {
				calls := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
				for _, tc := range m.ToolCalls {
					cn := mapping()
					add(cn, "id", str(tc.ID))
					add(cn, "name", str(tc.Name))
					add(cn, "input", text(tc.Input))
					calls.Content = append(calls.Content, cn)
				}
				add(mn, "tool_calls", calls)
			}
			conv.Content = append(conv.Content, mn)
		}
		add(root, "conversation", conv)
		add(root, "kept_tail", scalar(fmt.Sprint(c.KeptTail), "!!int", 0))
		if len(c.Probes) > 0 {
			probes := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
			for _, pr := range c.Probes {
				pn := mapping()
				pn.Style = yaml.FlowStyle
				add(pn, "message", scalar(fmt.Sprint(pr.Message), "!!int", 0))
				add(pn, "fact", str(pr.Fact))
				probes.Content = append(probes.Content, pn)
			}
			add(root, "probes", probes)
		}
		flaws := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
		for _, fl := range c.SummaryFlaws {
			flaws.Content = append(flaws.Content, str(fl))
		}
		add(root, "summary_flaws", flaws)
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil, fmt.Errorf("format %s: %w", c.ID, err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("format %s: %w", c.ID, err)
	}
	return f.splice(buf.Bytes(), c.ID)
}

// formatter writes double-quoted scalars itself: yaml.v3 leaves NBSP, U+3000, zero-width
// characters and other invisible ones raw inside double quotes, and escapes every character
// of a string that starts with a BOM. Each such scalar is emitted as a placeholder, then
// spliced in.
type formatter struct {
	quoted []string
}

// placeholder stands for a scalar rendered as text by the formatter itself.
func (f *formatter) placeholder(rendered string) *yaml.Node {
	f.quoted = append(f.quoted, rendered)
	return scalar(fmt.Sprintf("compacteval-quoted-%d-placeholder", len(f.quoted)-1), "!!str", 0)
}

func (f *formatter) splice(out []byte, id string) ([]byte, error) {
	for i := len(f.quoted) - 1; i >= 0; i-- {
		ph := []byte(fmt.Sprintf("compacteval-quoted-%d-placeholder", i))
		if bytes.Count(out, ph) != 1 {
			return nil, fmt.Errorf("format %s: the case text holds a formatter placeholder", id)
		}
		out = bytes.Replace(out, ph, []byte(f.quoted[i]), 1)
	}
	return out, nil
}

func (f *formatter) str(s string) *yaml.Node {
	if !blockSafe(s) {
		return f.placeholder(quote(s))
	}
	return scalar(s, "!!str", 0)
}

// text is a string that may span lines: a literal block when that is exact and readable.
func (f *formatter) text(s string) *yaml.Node {
	switch {
	case s == "" || !blockSafe(s):
		return f.placeholder(quote(s))
	case strings.Contains(s, "\n"):
		return scalar(s, "!!str", yaml.LiteralStyle)
	}
	return scalar(s, "!!str", 0)
}

// proseWidth is where folded notes wrap.
const proseWidth = 96

// prose is a one-line note: a folded block wrapped at proseWidth when it is long, so
// that case files read well in an editor and in a diff. (yaml.v3 does not wrap.)
func (f *formatter) prose(s string) *yaml.Node {
	if len(s) <= proseWidth || strings.ContainsAny(s, "\n\t") || s != strings.TrimSpace(s) || !blockSafe(s) {
		return f.text(s)
	}
	return f.placeholder(">-\n" + fold(s, proseWidth, "  "))
}

// fold breaks s into lines of at most width bytes (longer where a word is), each after
// indent. It breaks only at a single space between two other characters, which is where
// a YAML folded scalar turns a line break back into one space.
func fold(s string, width int, indent string) string {
	var b strings.Builder
	for s != "" {
		cut := -1
		if len(s) > width {
			for i := 1; i < len(s)-1; i++ {
				if s[i] != ' ' || s[i-1] == ' ' || s[i+1] == ' ' {
					continue
				}
				if i > width && cut > 0 {
					break
				}
				cut = i
			}
		}
		b.WriteString(indent)
		if cut < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:cut])
		b.WriteByte('\n')
		s = s[cut+1:]
	}
	return b.String()
}

// quote returns s as a one-line YAML double-quoted scalar that escapes every character
// Parse rejects raw; printable text stays readable.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			switch {
			case r != ' ' && rawUnsafe(r) && r <= 0xFF:
				fmt.Fprintf(&b, `\x%02X`, r)
			case r != ' ' && rawUnsafe(r) && r <= 0xFFFF:
				fmt.Fprintf(&b, `\u%04X`, r)
			case r != ' ' && rawUnsafe(r):
				fmt.Fprintf(&b, `\U%08X`, r)
			default:
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// rawUnsafe reports whether r must not stand raw in a case file.
func rawUnsafe(r rune) bool {
	return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zs, unicode.Zl, unicode.Zp, unicode.Co, unicode.Cs) || r == 0xFFFE || r == 0xFFFF
}

func mapping() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"} }

func add(m *yaml.Node, key string, v *yaml.Node) {
	m.Content = append(m.Content, scalar(key, "!!str", 0), v)
}

func scalar(v, tag string, style yaml.Style) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: v, Style: style}
}

// blockSafe reports whether s can stand in a literal block or a plain scalar with nothing
// lost: no characters that Parse rejects raw, and no spaces or tabs at a line end, which
// editors strip.
func blockSafe(s string) bool {
	for _, line := range strings.Split(s, "\n") {
		if strings.HasSuffix(line, " ") || strings.HasSuffix(line, "\t") {
			return false
		}
	}
	for _, r := range s {
		if r == '\n' || r == '\t' || r == ' ' {
			continue
		}
		if rawUnsafe(r) || r == unicode.ReplacementChar {
			return false
		}
	}
	return true
}

// Comments returns a problem for each YAML comment in data, at its line, in file order.
// Format does not keep comments, so compacteval corpus fmt refuses to rewrite a file that
// has any: a case's explanations belong in its notes.
func Comments(file string, data []byte) Problems {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	lines := strings.Split(string(data), "\n")
	seen := map[int]bool{}
	var ps Problems
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			break // io.EOF, or a syntax error that Parse reports
		}
		walkNodes(&doc, func(n *yaml.Node) {
			for _, c := range []struct {
				text string
				dir  int // where the comment is from the node: -1 before, 0 on its line, 1 after
			}{{n.HeadComment, -1}, {n.LineComment, 0}, {n.FootComment, 1}} {
				if c.text == "" {
					continue
				}
				l := commentLine(lines, c.text, n.Line, c.dir)
				if !seen[l] {
					seen[l] = true
					ps = append(ps, Problem{File: file, Line: l, Msg: "a YAML comment, which the canonical form does not keep: move it into notes or remove it"})
				}
			}
		})
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Line < ps[j].Line })
	return ps
}

func walkNodes(n *yaml.Node, fn func(*yaml.Node)) {
	fn(n)
	for _, c := range n.Content {
		walkNodes(c, fn)
	}
}

// commentLine finds the 1-based line that holds the first line of comment, searching from
// the line of the node it belongs to (line) backwards (dir -1) or forwards; line when none
// matches.
func commentLine(lines []string, comment string, line, dir int) int {
	first, _, _ := strings.Cut(comment, "\n")
	first = strings.TrimSpace(first)
	holds := func(i int) bool { // i is 0-based
		return i >= 0 && i < len(lines) && strings.HasSuffix(strings.TrimRight(lines[i], " \t\r"), first)
	}
	step := 1
	if dir < 0 {
		step = -1
	}
	for i := line - 1; i >= 0 && i < len(lines); i += step {
		if holds(i) {
			return i + 1
		}
	}
	return line
}
