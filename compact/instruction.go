package compact

import (
	"strconv"
	"strings"
)

// MaxTokens is the max_tokens the upstream agent sets on the compaction call.
const MaxTokens = 32000

// Reason is what triggered the compaction.
type Reason string

// The reasons the upstream module names. Any other value is worded like ReasonThreshold.
const (
	ReasonManual    Reason = "manual"
	ReasonThreshold Reason = "threshold"
	ReasonOverflow  Reason = "overflow"
)

// KeptTail describes the final messages that stay verbatim after the summary.
type KeptTail struct {
	// Count is how many trailing messages are kept; BuildInstruction ignores a count below 1.
	Count int
	// Opening is the opening text of the first kept message, quoted as a landmark when it is
	// not blank.
	Opening string
}

// Options are the inputs of BuildInstruction.
type Options struct {
	Reason Reason
	// CustomInstructions become a "## Compact Instructions" reminder when not blank.
	CustomInstructions string
	// KeptTail adds the kept-tail note when KeptTail.Count > 0.
	KeptTail KeptTail
}

const (
	manualNotice  = "The user has triggered a /compact command to summarize this conversation to reduce token usage and reduce the context window."
	runningNotice = "The conversation context window is running out. You must summarize the conversation immediately so that work can continue in a fresh context."
)

// BuildInstruction returns the full text of the user message appended to the conversation:
// an optional system reminder with the custom instructions, then a system reminder holding the
// trigger notice, the kept-tail note and Instruction.
func BuildInstruction(opts Options) string { return BuildInstructionWith(Instruction, opts) }

// BuildInstructionWith is BuildInstruction with instruction in place of Instruction, so that
// another version of the instruction text can be seen in the message the module would send
// (compacteval review renders an instruction file this way).
func BuildInstructionWith(instruction string, opts Options) string {
	notice := runningNotice
	if opts.Reason == ReasonManual {
		notice = manualNotice
	}
	var b strings.Builder
	if custom := TrimJS(opts.CustomInstructions); custom != "" {
		b.WriteString("<system-reminder>\n## Compact Instructions\n")
		b.WriteString(custom)
		b.WriteString("\n</system-reminder>\n\n")
	}
	b.WriteString("<system-reminder>\n")
	b.WriteString(notice)
	if opts.KeptTail.Count > 0 {
		b.WriteString(KeptTailNote(opts.KeptTail))
	}
	b.WriteString("\n")
	b.WriteString(instruction)
	b.WriteString("\n</system-reminder>")
	return b.String()
}

// KeptTailNote returns the scope note that tells the model the final tail.Count messages stay
// verbatim. It begins with a space, since it follows the trigger notice on the same line. A
// count of 1 reads "message", any other count (zero and negative included) "messages".
func KeptTailNote(tail KeptTail) string {
	landmark := ""
	if opening := TrimJS(tail.Opening); opening != "" {
		landmark = `, beginning with the message that opens "` + opening + `"`
	}
	noun := "messages"
	if tail.Count == 1 {
		noun = "message"
	}
	return " Only the earlier part of the conversation is being summarized: the final " +
		jsNumber(tail.Count) + " " + noun + landmark +
		", stay in context verbatim after the summary. Do not summarize them; cover everything before them, and use them only to judge which earlier details still matter."
}

// jsNumber formats n as JavaScript's String(n) does: beyond 2^53 a JavaScript number has
// already lost the low digits, so n goes through float64 first.
func jsNumber(n int) string {
	return strconv.FormatFloat(float64(n), 'f', -1, 64)
}

// ContinuationSummary returns the stored form of a summary: the continuation preamble, the
// summary, and, when transcriptPath is not empty, a pointer to the full transcript.
func ContinuationSummary(summary, transcriptPath string) string {
	const preamble = "This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation."
	s := preamble + "\n" + summary
	if transcriptPath != "" {
		s += "\n\nThe full transcript of the summarized conversation is at " + transcriptPath +
			" (JSONL, one entry per line). It is far larger than your context — NEVER read it whole. If the summary is missing a specific detail you need, grep it for a distinctive string (an error message, a file path, a function name) or read a narrow line range."
	}
	return s
}
