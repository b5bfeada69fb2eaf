package eval_test

import (
	"fmt"

	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/eval"
)

// Score the summary of a short session. The kept tail (Cut) is left out of what the
// summary must cover; Redact, when given, finds the secrets a summary must not carry
// (compacteval passes its gitleaks-based redactor; none is given here).
func ExampleScore() {
	summary := "1. Primary Request and Intent:\n   Fix the timeout of the export job in jobs/export.py.\n" +
		"8. Current Work:\n   Raised the batch size in jobs/export.py."
	in := eval.Input{
		ID: "session#1",
		Conversation: []corpus.Message{
			{Role: corpus.RoleUser, Text: "The export job in jobs/export.py times out on big tenants. Fix it."},
			{Role: corpus.RoleAssistant, Text: "I raised the batch size in jobs/export.py from 100 to 1000."},
			{Role: corpus.RoleUser, Text: "Now run the tests."},
		},
		Cut:     2,
		Summary: &summary,
	}
	r := eval.Score(in, eval.Options{})
	fmt.Println("sections present:", r.Sections.Present, "missing:", r.Sections.Missing)
	fmt.Println("summary tokens:", r.SummaryTokens, "secrets leaked:", r.SecretsLeaked)
	// Output:
	// sections present: [1 8] missing: [2 3 4 5 6 7 9]
	// summary tokens: 37 secrets leaked: 0
}
