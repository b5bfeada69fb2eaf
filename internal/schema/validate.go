package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"go.yaml.in/yaml/v3"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Schemas are the compiled schemas of docs/schema, by the keys of Files.
type Schemas map[string]*jsonschema.Schema

// Compile reads and compiles every schema of Files from dir (docs/schema). The schemas refer
// to nothing outside themselves: no schema is ever fetched.
func Compile(dir string) (Schemas, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(noLoader{})
	out := Schemas{}
	for _, name := range sortedKeys(Files) {
		file := filepath.Join(dir, Files[name])
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("read schema: %w", err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("read schema %s: %w", file, err)
		}
		id := Base + Files[name]
		if m, ok := doc.(map[string]any); !ok || m["$id"] != id {
			return nil, fmt.Errorf("schema %s: $id is not %s", file, id)
		}
		if err := c.AddResource(id, doc); err != nil {
			return nil, fmt.Errorf("add schema %s: %w", file, err)
		}
		s, err := c.Compile(id)
		if err != nil {
			return nil, fmt.Errorf("compile schema %s: %w", file, err)
		}
		out[name] = s
	}
	return out, nil
}

type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("schema %s is not in docs/schema (nothing is fetched)", url)
}

// Problem is one place where a document breaks its schema.
type Problem struct {
	File string
	Line int    // 1-based; 0 when unknown
	At   string // JSON pointer into the document ("" is the whole document)
	Msg  string
}

func (p Problem) String() string {
	at := p.At
	if at == "" {
		at = "/"
	}
	if p.Line == 0 {
		return fmt.Sprintf("%s: %s: %s", p.File, at, p.Msg)
	}
	return fmt.Sprintf("%s:%d: %s: %s", p.File, p.Line, at, p.Msg)
}

// Problems is the error ValidateJSON and ValidateYAML return, sorted by line.
type Problems []Problem

func (ps Problems) Error() string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	return strings.Join(s, "\n")
}

// ValidateJSON validates a JSON document read from file (named in problems) against the
// schema name (a key of Files). A document that breaks it is a Problems error.
func (s Schemas) ValidateJSON(name, file string, data []byte) error {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("%s: not JSON: %w", file, err)
	}
	lines, err := jsonLines(data)
	if err != nil {
		return fmt.Errorf("%s: not JSON: %w", file, err)
	}
	return s.validate(name, file, doc, lines)
}

// ValidateYAML validates one YAML document (a case file, gate.yaml) decoded to JSON values:
// mappings become objects (their keys must be strings), and scalars take their YAML types.
func (s Schemas) ValidateYAML(name, file string, data []byte) error {
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		return fmt.Errorf("%s: not YAML: %w", file, err)
	}
	lines := map[string]int{}
	var doc any
	if len(n.Content) > 0 {
		v, err := fromYAML(n.Content[0], "", lines)
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		doc = v
	}
	return s.validate(name, file, doc, lines)
}

func (s Schemas) validate(name, file string, doc any, lines map[string]int) error {
	sch := s[name]
	if sch == nil {
		return fmt.Errorf("no schema %q", name)
	}
	err := sch.Validate(doc)
	var ve *jsonschema.ValidationError
	if err == nil {
		return nil
	} else if !errors.As(err, &ve) {
		return fmt.Errorf("validate %s: %w", file, err)
	}
	p := message.NewPrinter(language.English)
	var ps Problems
	var leaves func(e *jsonschema.ValidationError)
	leaves = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				// The null branch of a nullable value (anyOf [T, null]) says nothing useful.
				if k, ok := c.ErrorKind.(*kind.Type); ok && len(e.Causes) > 1 && len(k.Want) == 1 && k.Want[0] == "null" {
					continue
				}
				leaves(c)
			}
			return
		}
		at := pointer(e.InstanceLocation)
		line := lineOf(lines, at)
		if k, ok := e.ErrorKind.(*kind.AdditionalProperties); ok && len(k.Properties) > 0 {
			line = lineOf(lines, at+"/"+escape(k.Properties[0])) // the unknown key's line
		}
		ps = append(ps, Problem{File: file, Line: line, At: at, Msg: e.ErrorKind.LocalizedString(p)})
	}
	leaves(ve)
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Line < ps[j].Line })
	return ps
}

// lineOf returns the line of the value at pointer at, or of its nearest parent.
func lineOf(lines map[string]int, at string) int {
	for {
		if l, ok := lines[at]; ok {
			return l
		}
		i := strings.LastIndexByte(at, '/')
		if i < 0 {
			return 0
		}
		at = at[:i]
	}
}

func pointer(loc []string) string {
	var b strings.Builder
	for _, t := range loc {
		b.WriteByte('/')
		b.WriteString(escape(t))
	}
	return b.String()
}

// fromYAML converts a YAML node to the values encoding/json would give, recording the line
// of every value by its JSON pointer.
func fromYAML(n *yaml.Node, at string, lines map[string]int) (any, error) {
	lines[at] = n.Line
	switch n.Kind {
	case yaml.AliasNode:
		return fromYAML(n.Alias, at, lines)
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" && k.ShortTag() != "!!int" {
				return nil, fmt.Errorf("line %d: a mapping key must be a string", k.Line)
			}
			child := at + "/" + escape(k.Value)
			x, err := fromYAML(v, child, lines)
			if err != nil {
				return nil, err
			}
			lines[child] = k.Line
			m[k.Value] = x
		}
		return m, nil
	case yaml.SequenceNode:
		s := make([]any, len(n.Content))
		for i, e := range n.Content {
			x, err := fromYAML(e, at+"/"+strconv.Itoa(i), lines)
			if err != nil {
				return nil, err
			}
			s[i] = x
		}
		return s, nil
	case yaml.ScalarNode:
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, fmt.Errorf("line %d: %w", n.Line, err)
		}
		return v, nil
	}
	return nil, fmt.Errorf("line %d: unexpected YAML node", n.Line)
}

// jsonLines returns the line of every value of a JSON document by its JSON pointer (for an
// object member, the line of its key).
func jsonLines(data []byte) (map[string]int, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	lines := map[string]int{}
	// The line of an offset: 1 + the newlines before it, found by a binary search in their
	// offsets (counting from the start for each value took quadratic time).
	var newlines []int64
	for i, b := range data {
		if b == '\n' {
			newlines = append(newlines, int64(i))
		}
	}
	line := func(off int64) int {
		n, _ := slices.BinarySearch(newlines, off)
		return 1 + n
	}
	var value func(at string, off int64) error
	value = func(at string, off int64) error {
		lines[at] = line(skipSpace(data, off))
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			for dec.More() {
				koff := dec.InputOffset()
				k, err := dec.Token()
				if err != nil {
					return err
				}
				child := at + "/" + escape(k.(string))
				if err := value(child, koff); err != nil {
					return err
				}
				lines[child] = line(skipSpace(data, koff))
			}
			_, err = dec.Token()
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if err := value(at+"/"+strconv.Itoa(i), dec.InputOffset()); err != nil {
					return err
				}
			}
			_, err = dec.Token()
		}
		return err
	}
	if err := value("", 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return lines, nil
}

// skipSpace returns the offset of the first byte at or after off that is not white space,
// a comma or a colon.
func skipSpace(data []byte, off int64) int64 {
	for off < int64(len(data)) && strings.IndexByte(" \t\r\n,:", data[off]) >= 0 {
		off++
	}
	return off
}

// escape escapes a JSON pointer's reference token.
func escape(token string) string { return strings.NewReplacer("~", "~0", "/", "~1").Replace(token) }

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
