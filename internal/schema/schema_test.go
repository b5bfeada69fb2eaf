package schema

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/atomicfile"
	"github.com/compacteval/compacteval/internal/gate"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "write docs/schema/report.schema.json from the Go types")

const (
	root      = "../.."
	schemaDir = root + "/docs/schema"
)

func compiled(t *testing.T) Schemas {
	t.Helper()
	s, err := Compile(schemaDir)
	if err != nil {
		t.Fatalf("Compile(%s): %v", schemaDir, err)
	}
	return s
}

// TestReportSchemaGenerated: the committed report schema is the one generated from the Go
// types and their doc comments, so it cannot drift from what compacteval writes.
func TestReportSchemaGenerated(t *testing.T) {
	want, err := os.ReadFile(filepath.Join(schemaDir, Files["report"]))
	if err != nil && !*update {
		t.Fatal(err)
	}
	t.Chdir(root)
	got, err := Report(true)
	if err != nil {
		t.Fatalf("Report() error: %v", err)
	}
	if *update {
		if err := atomicfile.Write(filepath.Join("docs/schema", Files["report"]), got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("docs/schema/report.schema.json is not what the Go types give (-committed +generated):\n%s\nYou can run 'go test ./internal/schema -update' and read the diff.", diff)
	}
}

// TestCorpusCases: every case of corpus/cases, and the fixtures that corpus.Parse accepts,
// match case.schema.json.
func TestCorpusCases(t *testing.T) {
	s := compiled(t)
	n := 0
	err := filepath.WalkDir(filepath.Join(root, "corpus/cases"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n++
		if err := s.ValidateYAML("case", path, data); err != nil {
			t.Errorf("the case breaks case.schema.json:\n%v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 200 {
		t.Fatalf("validated only %d case files: the walk is broken", n)
	}
}

// TestGateConfigs: this repository's gate.yaml and the one compacteval init writes.
func TestGateConfigs(t *testing.T) {
	s := compiled(t)
	for _, file := range []string{root + "/gate.yaml", root + "/cmd/compacteval/templates/gate.yaml"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := gate.ParseConfig(file, data); err != nil {
			t.Fatalf("gate.ParseConfig(%s): %v", file, err)
		}
		if err := s.ValidateYAML("gate", file, data); err != nil {
			t.Errorf("the config breaks gate.schema.json:\n%v", err)
		}
	}
}

// TestMaximalExamples: a fixture that sets every field the decoder has is accepted by both
// the decoder and the schema; a field added to the decoder but not to the fixture, or to
// the fixture but not to the schema, fails here.
func TestMaximalExamples(t *testing.T) {
	s := compiled(t)
	for _, tc := range []struct {
		name   string
		file   string
		decode func(file string, data []byte) (any, error)
	}{
		{"case", "testdata/case-maximal.yaml", func(file string, data []byte) (any, error) { return corpus.Parse(file, data, "") }},
		{"gate", "testdata/gate-maximal.yaml", func(file string, data []byte) (any, error) {
			c, err := gate.ParseConfig(file, data)
			return &c, err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := os.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			v, err := tc.decode(tc.file, data)
			if err != nil {
				t.Fatalf("the decoder refuses %s: %v", tc.file, err)
			}
			all := map[string]bool{}
			fieldPaths(reflect.TypeOf(v), "", all)
			set := map[string]bool{}
			setPaths(reflect.ValueOf(v), "", set)
			for _, p := range sortedSet(all) {
				if !set[p] {
					t.Errorf("%s does not set %s: set it, and describe it in docs/schema/%s", tc.file, p, Files[tc.name])
				}
			}
			if err := s.ValidateYAML(tc.name, tc.file, data); err != nil {
				t.Errorf("%s breaks its schema:\n%v", tc.file, err)
			}
		})
	}
}

// TestSchemaPropertiesAreDecoderFields: the properties of the hand-written schemas are
// exactly the YAML fields of corpus.Case and gate.Config, both ways.
func TestSchemaPropertiesAreDecoderFields(t *testing.T) {
	for _, tc := range []struct {
		name string
		typ  reflect.Type
	}{
		{"case", reflect.TypeOf(corpus.Case{})},
		{"gate", reflect.TypeOf(gate.Config{})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(schemaDir, Files[tc.name]))
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			fromSchema := map[string]bool{}
			schemaPaths(doc, doc, "", fromSchema)
			fromGo := map[string]bool{}
			fieldPaths(tc.typ, "", fromGo)
			if diff := cmp.Diff(sortedSet(fromGo), sortedSet(fromSchema)); diff != "" {
				t.Errorf("%s properties differ from the decoder's fields (-Go +schema):\n%s", Files[tc.name], diff)
			}
		})
	}
}

// TestRejects: documents that the schemas must refuse, each with the reason; where the
// decoder refuses them too, it is checked to.
func TestRejects(t *testing.T) {
	s := compiled(t)
	maxCase, err := os.ReadFile("testdata/case-maximal.yaml")
	if err != nil {
		t.Fatal(err)
	}
	maxGate, err := os.ReadFile("testdata/gate-maximal.yaml")
	if err != nil {
		t.Fatal(err)
	}
	edit := func(doc []byte, old, new string) string {
		if !strings.Contains(string(doc), old) {
			t.Fatalf("the fixture has no %q", old)
		}
		return strings.Replace(string(doc), old, new, 1)
	}
	for _, tc := range []struct {
		reason string
		schema string
		doc    string
		line   int // the line the schema's problem names
	}{
		{"an unknown key", "case", edit(maxCase, "kept_tail: 1", "kept_tail: 1\nkept_tial: 1"), 47},
		{"a misspelled nested key", "case", edit(maxCase, "  found: true", "  fuond: true"), 27},
		{"no intended", "case", edit(maxCase, "intended:\n  found: true\n  summary: The user asked to rename the flag; it is renamed.\n", ""), 1},
		{"found quoted", "case", edit(maxCase, "  found: true", `  found: "true"`), 28},
		{"found without a summary", "case", edit(maxCase, "  summary: The user asked to rename the flag; it is renamed.\n", ""), 27},
		{"an unknown category", "case", edit(maxCase, "[eval, truncated]", "[eval, truncate]"), 4},
		{"an unknown origin kind", "case", edit(maxCase, "kind: recorded", "kind: generated"), 9},
		{"a recorded case without its model", "case", edit(maxCase, "  model: example-model-1\n", ""), 8},
		{"a synthetic case with recorded fields", "case", edit(maxCase, "kind: recorded", "kind: synthetic"), 11},
		{"a bad date", "case", edit(maxCase, `"2026-01-02"`, `"02.01.2026"`), 13},
		{"an unknown role", "case", edit(maxCase, "role: user", "role: system"), 33},
		{"tool calls on a user message", "case", edit(maxCase, "role: assistant\n    text: Reading", "role: user\n    text: Reading"), 35},
		{"an unknown summary flaw", "case", edit(maxCase, "[incomplete]", "[incomplet]"), 50},
		{"a negative kept_tail", "case", edit(maxCase, "kept_tail: 1", "kept_tail: -1"), 46},
		{"a conversation without summary_flaws", "case", edit(maxCase, "summary_flaws: [incomplete]\n", ""), 1},
		{"version 2", "case", edit(maxCase, "version: 1", "version: 2"), 1},
		{"a share over 1", "gate", edit(maxGate, "coverage: 0.03", "coverage: 3"), 7},
		{"a negative count", "gate", edit(maxGate, "  intended_cases: 1", "  intended_cases: -1"), 5},
		{"a misspelled allowed drop", "gate", edit(maxGate, "tail_leakage", "tail_leak"), 11},
		{"a verdict other than pass or fail", "gate", edit(maxGate, "new_case: fail", "new_case: warn"), 17},
		{"must_pass without cases", "gate", edit(maxGate, `    cases: ["well-formed/*"]`+"\n", ""), 15},
		{"an unknown override", "gate", edit(maxGate, "drift_exact: 0.2", "drift: 0.2"), 13},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			err := s.ValidateYAML(tc.schema, "doc.yaml", []byte(tc.doc))
			var ps Problems
			if !errors.As(err, &ps) {
				t.Fatalf("ValidateYAML(%s) = %v, want problems", tc.reason, err)
			}
			if ps[0].Line != tc.line || ps[0].File != "doc.yaml" {
				t.Errorf("first problem at %s:%d, want doc.yaml:%d (%v)", ps[0].File, ps[0].Line, tc.line, err)
			}
			var derr error
			if tc.schema == "case" {
				_, derr = corpus.Parse("doc.yaml", []byte(tc.doc), "")
			} else {
				_, derr = gate.ParseConfig("doc.yaml", []byte(tc.doc))
			}
			if derr == nil {
				t.Errorf("the decoder accepts what the schema refuses (%v)", err)
			}
		})
	}
}

// fieldPaths adds the YAML keys of the struct type t, nested ones as a.b, and the keys of
// a map of structs as a.*.b; slices are transparent.
func fieldPaths(t reflect.Type, prefix string, out map[string]bool) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	if t.Kind() == reflect.Map && t.Elem().Kind() == reflect.Struct {
		fieldPaths(t.Elem(), prefix+"*.", out)
		return
	}
	if t.Kind() != reflect.Struct {
		return
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		out[prefix+name] = true
		fieldPaths(f.Type, prefix+name+".", out)
	}
}

// setPaths adds the paths of fieldPaths whose value is not zero somewhere in v.
func setPaths(v reflect.Value, prefix string, out map[string]bool) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			setPaths(v.Index(i), prefix, out)
		}
	case reflect.Map:
		if v.Type().Elem().Kind() == reflect.Struct {
			for _, k := range v.MapKeys() {
				setPaths(v.MapIndex(k), prefix+"*.", out)
			}
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if name == "-" || !f.IsExported() {
				continue
			}
			if !v.Field(i).IsZero() {
				out[prefix+name] = true
			}
			setPaths(v.Field(i), prefix+name+".", out)
		}
	}
}

// schemaPaths adds the property paths of schema node s (local $refs followed, array items
// transparent, additionalProperties of objects as *), in fieldPaths' form.
func schemaPaths(root, s map[string]any, prefix string, out map[string]bool) {
	if ref, ok := s["$ref"].(string); ok {
		def, _ := root["$defs"].(map[string]any)[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
		if def != nil {
			schemaPaths(root, def, prefix, out)
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		schemaPaths(root, items, prefix, out)
	}
	if ap, ok := s["additionalProperties"].(map[string]any); ok {
		schemaPaths(root, ap, prefix+"*.", out)
	}
	props, _ := s["properties"].(map[string]any)
	for name, p := range props {
		out[prefix+name] = true
		schemaPaths(root, p.(map[string]any), prefix+name+".", out)
	}
}

func sortedSet(m map[string]bool) []string {
	var s []string
	for k := range m {
		s = append(s, k)
	}
	sort.Strings(s)
	return s
}

// TestKnownDeviationNames: known_deviations may name every extractor profile compact has
// (case.schema.json gives a pattern for the names, not a list that would go stale).
func TestKnownDeviationNames(t *testing.T) {
	s := compiled(t)
	data, err := os.ReadFile("testdata/case-maximal.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, name := range compact.ExtractorNames() {
		lines = append(lines, fmt.Sprintf("  %q: a reason", name))
	}
	doc := strings.Replace(string(data), "known_deviations:\n  plain: keeps the tags", "known_deviations:\n"+strings.Join(lines, "\n"), 1)
	if doc == string(data) {
		t.Fatal("the fixture's known_deviations changed: update this test")
	}
	if err := s.ValidateYAML("case", "maximal+names.yaml", []byte(doc)); err != nil {
		t.Errorf("case.schema.json refuses an extractor name of compact.ExtractorNames():\n%v", err)
	}
}
