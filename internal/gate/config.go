package gate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/internal/infile"
	"github.com/compacteval/compacteval/internal/textdiff"
	"go.yaml.in/yaml/v3"
)

// Config is gate.yaml.
type Config struct {
	Version int `yaml:"version"`
	// AllowedDrop sets how far each metric may fall below the baseline (shares, 0 to 1).
	AllowedDrop Drops `yaml:"allowed_drop"`
	// Extractors overrides AllowedDrop.IntendedRate and DriftExact per extractor.
	Extractors map[string]ExtractorDrops `yaml:"extractors"`
	// MustPass lists cases that must return the intended result, whatever the baseline.
	MustPass []MustPass `yaml:"must_pass"`
	// NewCase is "pass" (a case the baseline lacks is reported, not held against the run)
	// or "fail" (it must be blessed first). RemovedCase is "fail" or "pass".
	NewCase     string `yaml:"new_case"`
	RemovedCase string `yaml:"removed_case"`
	// Problems is "fail" (a run with a golden mismatch or an unlisted deviation fails) or
	// "pass" (they are reported only).
	Problems string `yaml:"problems"`
	// Review sets when compacteval review's A/B run with a model fails (docs/review-ab.md).
	Review ReviewGate `yaml:"review"`
	// Fuzz lists the kinds of fuzz failure accepted per extractor (compacteval fuzz -config).
	Fuzz FuzzConfig `yaml:"fuzz"`

	// AllowCorpusChange compares two reports whose corpus (its digest) or drift parameters
	// differ; without it Check refuses them. Not part of gate.yaml: a flag of the command.
	AllowCorpusChange bool `yaml:"-"`
	// File is the file the config was read from ("" for one made in code), for errors.
	File string `yaml:"-"`
}

// ReviewGate is the review: section: the headline score may fall by MinDelta (the run
// fails when its whole 95% interval lies below -MinDelta), head may lose
// AllowedLostSummaries summaries that base kept, and head's summaries may average at most
// MaxSummaryTokens tokens (0: no limit).
type ReviewGate struct {
	MinDelta             float64 `yaml:"min_delta"`
	AllowedLostSummaries int     `yaml:"allowed_lost_summaries"`
	MaxSummaryTokens     int     `yaml:"max_summary_tokens"`
}

// Drops are the allowed drops of the metrics the gate checks.
type Drops struct {
	// IntendedRate: an extractor's share of cases returning the intended result, over the
	// cases the baseline and the run both have.
	IntendedRate float64 `yaml:"intended_rate"`
	// IntendedCases: how many cases an extractor may stop handling (pass -> fail).
	IntendedCases int `yaml:"intended_cases"`
	// DriftExact: an extractor's share of exact recoveries over the drift matrix.
	DriftExact float64 `yaml:"drift_exact"`
	// Coverage and BoundaryCoverage: the mean eval scores; CaseCoverage and
	// CaseBoundaryCoverage: one case's. TailLeakage is the allowed rise of its mean.
	Coverage             float64 `yaml:"coverage"`
	BoundaryCoverage     float64 `yaml:"boundary_coverage"`
	CaseCoverage         float64 `yaml:"case_coverage"`
	CaseBoundaryCoverage float64 `yaml:"case_boundary_coverage"`
	TailLeakage          float64 `yaml:"tail_leakage"`
}

// ExtractorDrops overrides the extractor metrics' allowed drops for one extractor. Under a
// name without a version (claude-code) it applies to every version of that agent that has
// no entry of its own.
type ExtractorDrops struct {
	IntendedRate  *float64 `yaml:"intended_rate"`
	IntendedCases *int     `yaml:"intended_cases"`
	DriftExact    *float64 `yaml:"drift_exact"`
	// Line is the line of its key in gate.yaml, for errors.
	Line int `yaml:"-"`
}

// MustPass names cases (path.Match patterns over case ids, such as "well-formed/*"; a lone
// "*" matches every case) that an extractor must handle. An alias (claude-code) names its
// newest version, as on the command line.
type MustPass struct {
	Extractor string   `yaml:"extractor"`
	Cases     []string `yaml:"cases"`
	// Line is the entry's line in File (0 for one made in code).
	Line int `yaml:"-"`
}

// ErrConfig marks a config that cannot be used.
var ErrConfig = errors.New("bad gate config")

// ConfigError is a problem at a line of gate.yaml. It wraps ErrConfig; ParseConfig returns
// it, and Check for a must_pass entry that names an extractor the run does not have.
type ConfigError struct {
	File string // "" for a config made in code
	Line int
	Msg  string
}

func (e *ConfigError) Error() string {
	if e.File == "" {
		return fmt.Sprintf("%v: %s", ErrConfig, e.Msg)
	}
	return fmt.Sprintf("%v: %s:%d: %s", ErrConfig, e.File, e.Line, e.Msg)
}

func (e *ConfigError) Unwrap() error { return ErrConfig }

// DefaultConfig is the config used without -config: nothing may fall, new cases pass,
// removed cases fail, run problems fail.
func DefaultConfig() Config {
	return Config{Version: 1, NewCase: "pass", RemovedCase: "fail", Problems: "fail"}
}

// ReadConfig reads gate.yaml strictly: unknown keys and bad values are errors naming the
// file and line.
func ReadConfig(file string) (Config, error) {
	data, err := infile.Read(file, infile.MaxConfigBytes, "a gate config")
	if err != nil {
		return Config{}, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	return ParseConfig(file, data)
}

// ParseConfig decodes a config read from file. Problems are *ConfigError values naming
// file:line; with several, the first in file order is reported, so that the error does not
// change from run to run.
func ParseConfig(file string, data []byte) (Config, error) {
	cfg := DefaultConfig()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil && !errors.Is(err, io.EOF) {
		return Config{}, fmt.Errorf("%w: %s", ErrConfig, yamlLines.ReplaceAllString(decodeMessage(err), file+":$1:"))
	}
	cfg.File = file
	var doc yaml.Node
	_ = yaml.Unmarshal(data, &doc)
	if doc.Kind == 0 || doc.Kind == yaml.DocumentNode && len(doc.Content) == 0 {
		// A file that sets nothing is likely not the one meant; gate.schema.json refuses it.
		return Config{}, &ConfigError{File: file, Line: 1, Msg: "the file sets nothing (want at least version: 1; without -config the defaults apply)"}
	}
	line := func(path ...string) int { return keyLine(&doc, path...) }
	// before orders keys by their position in the file (line, then column).
	before := func(a, b []string) bool {
		la, ca := keyPos(&doc, a...)
		lb, cb := keyPos(&doc, b...)
		return la < lb || la == lb && ca < cb
	}
	bad := func(line int, format string, args ...any) error {
		return &ConfigError{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	if cfg.Version != 1 {
		return Config{}, bad(line("version"), "version is %d, this compacteval reads version 1", cfg.Version)
	}
	for _, f := range []struct{ key, v string }{{"new_case", cfg.NewCase}, {"removed_case", cfg.RemovedCase}, {"problems", cfg.Problems}} {
		if f.v != "pass" && f.v != "fail" {
			return Config{}, bad(line(f.key), "%s is %q, want pass or fail", f.key, f.v)
		}
	}
	// A count is a whole number: YAML decodes intended_cases: 0.5 into an int as 0.
	countPaths := [][]string{{"allowed_drop", "intended_cases"}}
	for name := range cfg.Extractors {
		countPaths = append(countPaths, []string{"extractors", name, "intended_cases"})
	}
	sort.SliceStable(countPaths, func(i, j int) bool { return before(countPaths[i], countPaths[j]) })
	for _, p := range countPaths {
		if n := valueAt(&doc, p...); n != nil && n.Kind == yaml.ScalarNode && n.ShortTag() != "!!int" {
			return Config{}, bad(n.Line, "%s is %s, want a whole number of cases", strings.Join(p, "."), n.Value)
		}
	}
	d := cfg.AllowedDrop
	limits := []limit{{"intended_rate", d.IntendedRate, false}, {"intended_cases", float64(d.IntendedCases), true},
		{"drift_exact", d.DriftExact, false}, {"coverage", d.Coverage, false}, {"boundary_coverage", d.BoundaryCoverage, false},
		{"case_coverage", d.CaseCoverage, false}, {"case_boundary_coverage", d.CaseBoundaryCoverage, false},
		{"tail_leakage", d.TailLeakage, false}}
	if err := checkLimits(limits, "allowed_drop", []string{"allowed_drop"}, line, before, bad); err != nil {
		return Config{}, err
	}
	// Overrides in file order (a map has none of its own).
	names := make([]string, 0, len(cfg.Extractors))
	for name := range cfg.Extractors {
		names = append(names, name)
	}
	sort.Strings(names)
	sort.SliceStable(names, func(i, j int) bool { return before([]string{"extractors", names[i]}, []string{"extractors", names[j]}) })
	for _, name := range names {
		o := cfg.Extractors[name]
		o.Line = line("extractors", name)
		cfg.Extractors[name] = o
		prefix := "extractors." + name
		var limits []limit
		if o.IntendedRate != nil {
			limits = append(limits, limit{"intended_rate", *o.IntendedRate, false})
		}
		if o.IntendedCases != nil {
			limits = append(limits, limit{"intended_cases", float64(*o.IntendedCases), true})
		}
		if o.DriftExact != nil {
			limits = append(limits, limit{"drift_exact", *o.DriftExact, false})
		}
		if err := checkLimits(limits, prefix, []string{"extractors", name}, line, before, bad); err != nil {
			return Config{}, err
		}
	}
	if err := checkFuzz(&doc, bad); err != nil {
		return Config{}, err
	}
	for i := range cfg.MustPass {
		m := &cfg.MustPass[i]
		m.Line = seqLine(&doc, i, "must_pass")
		if m.Extractor == "" || len(m.Cases) == 0 {
			return Config{}, bad(m.Line, "each must_pass entry needs an extractor and cases")
		}
		if target, ok := compact.Alias(m.Extractor); ok {
			m.Extractor = target
		}
		for _, pat := range m.Cases {
			if _, err := path.Match(pat, ""); err != nil {
				return Config{}, bad(m.Line, "bad case pattern %q: %v", pat, err)
			}
		}
	}
	return cfg, nil
}

// limit is one allowed drop, by its key: a share, or a count of cases.
type limit struct {
	key   string
	v     float64
	count bool
}

// checkLimits reports the first limit, in the order of their keys in the file (below the
// mapping at path), that is out of range: a share must be a number from 0 to 1 (NaN is not:
// every comparison with it is false, which would pass any run), a count 0 or more.
func checkLimits(limits []limit, prefix string, path []string, line func(...string) int, before func(a, b []string) bool, bad func(int, string, ...any) error) error {
	at := func(key string) []string { return append(append([]string{}, path...), key) }
	sort.SliceStable(limits, func(i, j int) bool { return before(at(limits[i].key), at(limits[j].key)) })
	for _, l := range limits {
		switch {
		case l.count && l.v < 0:
			return bad(line(at(l.key)...), "%s.%s is %v, want 0 or more", prefix, l.key, l.v)
		case !l.count && !(l.v >= 0 && l.v <= 1):
			return bad(line(at(l.key)...), "%s.%s is %v, want a share from 0 to 1", prefix, l.key, l.v)
		}
	}
	return nil
}

// decodeMessage is yaml.v3's decode error in the terms of gate.yaml: an unknown key names
// the keys its mapping has (and the closest one), and a value of the wrong kind says which
// kind, never the Go type behind it.
func decodeMessage(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.TrimPrefix(msg, "unmarshal errors:\n")
	var lines []string
	for _, l := range strings.Split(msg, "\n") {
		l = strings.TrimSpace(l)
		if m := unknownField.FindStringSubmatch(l); m != nil {
			known := yamlKeys[m[3]]
			l = fmt.Sprintf("%sunknown key %s", m[1], m[2])
			if best := closestKey(m[2], known); best != "" {
				l += fmt.Sprintf(" (did you mean %s?)", best)
			}
			if len(known) > 0 {
				l += "; the keys there are " + strings.Join(known, ", ")
			}
		} else if m := wrongKind.FindStringSubmatch(l); m != nil {
			l = fmt.Sprintf("%s%s is not %s", m[1], m[2], kindNames[m[3]])
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, "\n  ")
}

var (
	unknownField = regexp.MustCompile(`^(line \d+: )?field (\S+) not found in type gate\.(\w+)$`)
	wrongKind    = regexp.MustCompile(`^(line \d+: )?cannot unmarshal !!\w+ (.+) into (\S+)$`)
	kindNames    = map[string]string{"float64": "a number", "*float64": "a number", "int": "a whole number",
		"*int": "a whole number", "string": "a string", "[]string": "a list of strings",
		"gate.Drops": "a mapping of allowed drops", "map[string]gate.ExtractorDrops": "a mapping of extractor names",
		"[]gate.MustPass": "a list of must_pass entries", "gate.ExtractorDrops": "a mapping of allowed drops",
		"gate.MustPass": "a must_pass entry (extractor, cases)", "gate.Config": "a mapping",
		"gate.FuzzConfig": "a mapping (accept)", "map[string][]string": "a mapping of extractor names to lists of kinds"}
	// yamlKeys are the keys of each mapping of gate.yaml, by the Go type that decodes it.
	yamlKeys = map[string][]string{"Config": tagsOf(Config{}), "Drops": tagsOf(Drops{}),
		"ExtractorDrops": tagsOf(ExtractorDrops{}), "MustPass": tagsOf(MustPass{}), "FuzzConfig": tagsOf(FuzzConfig{}),
		"ReviewGate": tagsOf(ReviewGate{})}
)

// tagsOf returns the yaml keys of struct v's fields, in their order.
func tagsOf(v any) []string {
	var keys []string
	t := reflect.TypeOf(v)
	for i := range t.NumField() {
		if k, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ","); k != "" && k != "-" {
			keys = append(keys, k)
		}
	}
	return keys
}

// closestKey returns the key of known nearest to key, if it is a likely typo.
func closestKey(key string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := textdiff.EditDistance(key, k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// yamlLines finds yaml.v3's "line N:" to rewrite as file:N:.
var yamlLines = regexp.MustCompile(`(?:^|\b)line (\d+):`)

// keyLine returns the line of the key at path (mapping keys from the top of the document),
// or of the deepest key on the path that exists, or 1.
func keyLine(doc *yaml.Node, path ...string) int {
	line, _ := keyPos(doc, path...)
	return line
}

// keyPos is keyLine with the key's column.
func keyPos(doc *yaml.Node, path ...string) (line, col int) {
	n, line, col := doc, 1, 0
	for _, key := range path {
		n = resolve(n)
		if n == nil || n.Kind != yaml.MappingNode {
			return line, col
		}
		found := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Value == key {
				line, col, n, found = k.Line, k.Column, n.Content[i+1], true
				break
			}
		}
		if !found {
			return line, col
		}
	}
	return line, col
}

// valueAt returns the value node at path, or nil.
func valueAt(doc *yaml.Node, path ...string) *yaml.Node {
	n := doc
	for _, key := range path {
		n = resolve(n)
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				next = n.Content[i+1]
			}
		}
		n = next
	}
	return resolve(n)
}

// seqLine returns the line of element i of the sequence at path, or keyLine of path.
func seqLine(doc *yaml.Node, i int, path ...string) int {
	n := doc
	for _, key := range path {
		n = resolve(n)
		if n == nil || n.Kind != yaml.MappingNode {
			return keyLine(doc, path...)
		}
		var next *yaml.Node
		for j := 0; j+1 < len(n.Content); j += 2 {
			if n.Content[j].Value == key {
				next = n.Content[j+1]
			}
		}
		n = next
	}
	if n = resolve(n); n == nil || n.Kind != yaml.SequenceNode || i >= len(n.Content) {
		return keyLine(doc, path...)
	}
	return n.Content[i].Line
}

// resolve skips the document node and follows aliases.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil {
		switch {
		case n.Kind == yaml.DocumentNode && len(n.Content) == 1:
			n = n.Content[0]
		case n.Kind == yaml.AliasNode:
			n = n.Alias
		default:
			return n
		}
	}
	return nil
}
