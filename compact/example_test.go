package compact_test

import (
	"fmt"
	"strings"

	"github.com/compacteval/compacteval/compact"
)

// Extract a summary with the port of the seed module and with robust: on a well-formed
// answer they agree; on an answer whose summary block is never closed, the seed keeps the
// opener in the summary and robust drops it.
func ExampleLookup() {
	answers := []string{
		"<analysis>\nI read the session.\n</analysis>\n<summary>\n1. Primary Request and Intent:\n   Fix the flaky test.\n</summary>",
		"<analysis>\nI read the session.\n</analysis>\n<summary>\n1. Primary Request and Intent:\n   Fix the flaky test.",
	}
	for _, name := range []string{"seed", "robust"} {
		ex, _ := compact.Lookup(name)
		for _, a := range answers {
			got := ex.Extract(a)
			fmt.Printf("%s: ok %v, %q\n", name, got.OK, got.Summary)
		}
	}
	// Output:
	// seed: ok true, "1. Primary Request and Intent:\n   Fix the flaky test."
	// seed: ok true, "<summary>\n1. Primary Request and Intent:\n   Fix the flaky test."
	// robust: ok true, "1. Primary Request and Intent:\n   Fix the flaky test."
	// robust: ok true, "1. Primary Request and Intent:\n   Fix the flaky test."
}

// Build the instruction the model is sent, with custom instructions and a kept tail.
func ExampleBuildInstruction() {
	ins := compact.BuildInstruction(compact.Options{
		Reason:             compact.Reason("manual"),
		CustomInstructions: "Keep every file path.",
		KeptTail:           compact.KeptTail{Count: 4, Opening: "Run the tests again"},
	})
	for _, line := range strings.Split(ins, "\n") {
		if strings.Contains(line, "Keep every file path.") || strings.Contains(line, "Run the tests again") {
			fmt.Println(line)
		}
	}
	// Output:
	// Keep every file path.
	// The user has triggered a /compact command to summarize this conversation to reduce token usage and reduce the context window. Only the earlier part of the conversation is being summarized: the final 4 messages, beginning with the message that opens "Run the tests again", stay in context verbatim after the summary. Do not summarize them; cover everything before them, and use them only to judge which earlier details still matter.
}
