// Package schema generates the JSON Schema of report.json from its Go types and validates
// documents (report.json, case files, gate.yaml) against the schemas in docs/schema.
//
// The report schema is generated (Report), so it cannot drift from package report: a test
// compares it with the committed docs/schema/report.schema.json. The case and gate schemas
// are hand-written, because their decoders (corpus.Parse, gate.ParseConfig) are custom;
// tests check that their properties are exactly the decoders' fields.
package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"reflect"
	"strings"

	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/report"
	"github.com/invopop/jsonschema"
)

// Draft is the JSON Schema dialect of every schema in docs/schema.
const Draft = "https://json-schema.org/draft/2020-12/schema"

// Base is where the schemas are published: their $id is Base + file name.
const Base = "https://github.com/compacteval/compacteval/blob/main/docs/schema/"

// Files are the schemas in docs/schema, by the document they describe.
var Files = map[string]string{
	"report": "report.schema.json",
	"case":   "case.schema.json",
	"gate":   "gate.schema.json",
}

// ReportPackages are the folders (below the module root) whose Go doc comments describe
// the report's fields.
var ReportPackages = []string{"report", "corpus", "eval", "fuzz", "compact"}

const module = "github.com/compacteval/compacteval"

// Report returns the JSON Schema of report.json, generated from report.Report, as indented
// JSON with a final newline. With comments, the Go doc comments of ReportPackages become
// descriptions; they are read from the working directory, which must then be the module's
// root (jsonschema.Reflector.AddGoComments resolves packages from it). The output is stable
// for given types and comments.
func Report(comments bool) ([]byte, error) {
	r := &jsonschema.Reflector{
		// Every field the encoder always writes is required: a field without omitempty.
		RequiredFromJSONSchemaTags: false,
		Mapper:                     mapType,
		// Types of several packages share names (report.Report, eval.Report).
		Namer: func(t reflect.Type) string {
			if t.Name() == "" {
				return ""
			}
			return path.Base(t.PkgPath()) + "." + t.Name()
		},
	}
	if comments {
		for _, dir := range ReportPackages {
			if err := r.AddGoComments(module, "./"+dir); err != nil {
				return nil, fmt.Errorf("read doc comments of %s: %w", dir, err)
			}
		}
	}
	s := r.Reflect(&report.Report{})
	nullable(s, reflect.TypeOf(report.Report{}), r.Namer, map[reflect.Type]bool{})
	s.Version = Draft
	s.ID = jsonschema.ID(Base + Files["report"])
	s.Title = "compacteval report.json"
	s.Description = fmt.Sprintf("The document compacteval run writes (schema_version %d). Generated from the Go types of package report by go test ./internal/schema -update; do not edit.", report.SchemaVersion)
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("marshal report schema: %w", err)
	}
	return append(bytes.TrimSpace(data), '\n'), nil
}

// mapType gives the schema of types whose JSON is written by hand.
func mapType(t reflect.Type) *jsonschema.Schema {
	if t == reflect.TypeOf(eval.Share{}) {
		props := jsonschema.NewProperties()
		props.Set("hit", &jsonschema.Schema{Type: "integer", Minimum: "0"})
		props.Set("of", &jsonschema.Schema{Type: "integer", Minimum: "0"})
		props.Set("value", &jsonschema.Schema{
			Description: "hit/of rounded to four decimals; null when of is 0",
			OneOf:       []*jsonschema.Schema{{Type: "number", Minimum: "0", Maximum: "1"}, {Type: "null"}},
		})
		return &jsonschema.Schema{
			Type:                 "object",
			Description:          "A share hit/of, as eval.Share writes it.",
			Properties:           props,
			Required:             []string{"hit", "of", "value"},
			AdditionalProperties: jsonschema.FalseSchema,
		}
	}
	if t == reflect.TypeOf(eval.Weighted{}) {
		props := jsonschema.NewProperties()
		props.Set("hit", &jsonschema.Schema{Type: "number", Minimum: "0", Description: "the sum of the weights of the facts held, rounded to four decimals"})
		props.Set("of", &jsonschema.Schema{Type: "number", Minimum: "0", Description: "the sum of the weights of the facts counted, rounded to four decimals"})
		props.Set("value", &jsonschema.Schema{
			Description: "hit/of rounded to four decimals; null when of is 0",
			OneOf:       []*jsonschema.Schema{{Type: "number", Minimum: "0", Maximum: "1"}, {Type: "null"}},
		})
		return &jsonschema.Schema{
			Type:                 "object",
			Description:          "A weighted share hit/of, as eval.Weighted writes it.",
			Properties:           props,
			Required:             []string{"hit", "of", "value"},
			AdditionalProperties: jsonschema.FalseSchema,
		}
	}
	return nil
}

// nullable lets the properties of t's definition in s (and of every struct type below t)
// be null where encoding/json writes null: a nil slice, map or pointer in a field without
// omitempty.
func nullable(s *jsonschema.Schema, t reflect.Type, name func(reflect.Type) string, seen map[reflect.Type]bool) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] || t == reflect.TypeOf(eval.Share{}) || t == reflect.TypeOf(eval.Weighted{}) {
		return
	}
	seen[t] = true
	def := s.Definitions[name(t)]
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || tag == "-" {
			continue
		}
		nullable(s, f.Type, name, seen)
		if def == nil || strings.Contains(opts, "omitempty") {
			continue
		}
		switch f.Type.Kind() {
		case reflect.Slice, reflect.Map, reflect.Pointer:
		default:
			continue
		}
		if tag == "" {
			tag = f.Name
		}
		p, ok := def.Properties.Get(tag)
		if !ok {
			continue
		}
		c := *p
		c.Description = ""
		def.Properties.Set(tag, &jsonschema.Schema{
			Description: p.Description,
			AnyOf:       []*jsonschema.Schema{&c, {Type: "null"}},
		})
	}
}
