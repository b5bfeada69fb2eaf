package main

import (
	"os"
	"testing"
)

// TestUserWorkflowDoc: the workflow the README points users to is what init writes for
// -extractor module:src/compaction.ts.
func TestUserWorkflowDoc(t *testing.T) {
	want, err := os.ReadFile("../../docs/github-actions/user-repo.yml")
	if err != nil {
		t.Fatal(err)
	}
	got, err := workflowText(inputs{extractors: []string{"module:src/compaction.ts"}}, ".compacteval/baseline.json", "gate.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("docs/github-actions/user-repo.yml differs from init's workflow; write it again with compacteval init -extractor module:src/compaction.ts")
	}
}
