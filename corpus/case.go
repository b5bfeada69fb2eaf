// Package corpus loads, checks and writes the corpus of model responses to the compaction
// prompt that every extractor is measured against.
//
// A case is one YAML file (FORMAT.md describes the fields); Load reads a tree of them
// strictly and reports every problem as file:line:col.
package corpus

import "strings"

// Version is the case format version this package reads and writes.
const Version = 1

// Categories are the kinds of response the corpus covers, in report order.
var Categories = []string{
	"well-formed", "malformed-tags", "inline-mention", "nested-example", "duplicated",
	"truncated", "line-endings", "whitespace-unicode", "fenced", "empty-and-degenerate",
	"order", "large",
}

// Case is one recorded or synthetic model response with its intended summary.
type Case struct {
	Version    int      `yaml:"version"`
	ID         string   `yaml:"id"`
	Title      string   `yaml:"title"`
	Categories []string `yaml:"categories"`
	Notes      string   `yaml:"notes"`
	Origin     Origin   `yaml:"origin"`
	Response   string   `yaml:"response"`
	Intended   Intended `yaml:"intended"`
	// KnownDeviations maps an extractor name to why its output differs from Intended.
	KnownDeviations map[string]string `yaml:"known_deviations,omitempty"`

	// File is the path the case was read from; not part of the YAML.
	File string `yaml:"-"`
}

// Origin says where a response came from.
type Origin struct {
	// Kind is "synthetic" or "recorded" (a model really produced the response).
	Kind        string `yaml:"kind"`
	DerivedFrom string `yaml:"derived_from,omitempty"`

	// The fields below are required for recorded responses and absent for synthetic ones,
	// apart from the optional StopReason, Truncated and Usage.
	Model             string         `yaml:"model,omitempty"`
	Provider          string         `yaml:"provider,omitempty"`
	Date              string         `yaml:"date,omitempty"`
	InstructionSHA256 string         `yaml:"instruction_sha256,omitempty"`
	Parameters        map[string]any `yaml:"parameters,omitempty"`
	StopReason        string         `yaml:"stop_reason,omitempty"`
	Truncated         bool           `yaml:"truncated,omitempty"`
	Usage             map[string]int `yaml:"usage,omitempty"`
}

// Origin kinds.
const (
	Synthetic = "synthetic"
	Recorded  = "recorded"
)

// Intended is a careful reader's judgement of what the summary is.
type Intended struct {
	// Found is false when the response holds no summary at all.
	Found bool `yaml:"found"`
	// Summary is the intended summary, trimmed; empty when Found is false.
	Summary string `yaml:"summary,omitempty"`
}

// HasCategory reports whether c is in category cat.
func (c *Case) HasCategory(cat string) bool {
	for _, x := range c.Categories {
		if x == cat {
			return true
		}
	}
	return false
}

// Folder returns the category folder a case lives in: the first part of its id.
func (c *Case) Folder() string {
	folder, _, _ := strings.Cut(c.ID, "/")
	return folder
}
