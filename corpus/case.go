// Package corpus loads, checks and writes the corpus of model responses to the compaction
// prompt that every extractor is measured against.
//
// A case is one YAML file (FORMAT.md describes the fields); Load reads a tree of them
// strictly and reports every problem as file:line:col. Open reads the corpora of a run and
// holds their cases; OpenLazy checks them alike but keeps an Entry per case, and Read reads
// cases back from their files a batch at a time, so that memory does not grow with them.
package corpus

import "strings"

// Version is the case format version this package reads and writes.
const Version = 1

// Unreviewed marks, in its notes, a recorded case whose intended result and summary flaws a
// person has not judged yet (compacteval record writes them to corpus/inbox). No case in
// corpus/cases may carry it.
const Unreviewed = "not yet reviewed by a person"

// Categories are the kinds of response the corpus covers, in report order.
var Categories = []string{
	"well-formed", "malformed-tags", "inline-mention", "nested-example", "duplicated",
	"truncated", "line-endings", "whitespace-unicode", "fenced", "empty-and-degenerate",
	"order", "large", "eval",
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
	// KnownDeviations maps an extractor name to why its output differs from Intended. A
	// name without a version (claude-code) speaks for every version of that agent that
	// the case does not list by its own name (see Deviation).
	KnownDeviations map[string]string `yaml:"known_deviations,omitempty"`

	// The fields below are optional and feed eval: the conversation the response
	// summarizes, how many of its final messages stay verbatim after compaction, facts a
	// good summary must hold, and a reader's judgement of the summary's flaws.
	Conversation []Message `yaml:"conversation,omitempty"`
	KeptTail     int       `yaml:"kept_tail,omitempty"`
	Probes       []Probe   `yaml:"probes,omitempty"`
	// SummaryFlaws is nil without a conversation; empty ([]) when a reader judges the
	// intended summary complete.
	SummaryFlaws []string `yaml:"summary_flaws,omitempty"`

	// File is the path the case was read from; not part of the YAML.
	File string `yaml:"-"`
	// SHA256 is the hex digest of the case file's bytes; not part of the YAML.
	SHA256 string `yaml:"-"`
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

// Message is one message of a conversation.
type Message struct {
	// Role is user, assistant or tool (a tool result).
	Role string `yaml:"role"`
	Text string `yaml:"text,omitempty"`
	// ToolCalls are an assistant message's tool calls.
	ToolCalls []ToolCall `yaml:"tool_calls,omitempty"`
	// ToolCallID is the call a tool message answers.
	ToolCallID string `yaml:"tool_call_id,omitempty"`
}

// ToolCall is one tool call of an assistant message: its input is the command, or the
// arguments as JSON.
type ToolCall struct {
	ID    string `yaml:"id"`
	Name  string `yaml:"name"`
	Input string `yaml:"input"`
}

// Message roles.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Probe is a hand-written fact that a summary of the conversation must hold.
type Probe struct {
	Fact string `yaml:"fact"`
	// Message is the 0-based index of the message the fact comes from.
	Message int `yaml:"message"`
}

// SummaryFlawNames are the flaws a reader can find in a summary, for summary_flaws.
var SummaryFlawNames = []string{
	"drops-recent-work",  // the work right before the kept tail is missing or vague
	"retells-tail",       // re-tells what the kept tail already holds
	"misattributes-user", // presents assistant text as the user's words
	"loses-constraint",   // drops or paraphrases a security constraint the user gave
	"drops-early-work",   // loses facts from early in the conversation
	"incomplete",         // sections or facts missing elsewhere
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
