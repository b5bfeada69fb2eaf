package extractor

import (
	"context"
	"strings"
	"testing"
)

// TestOpenAlias: a bare agent name opens its newest version under the version's name, and
// naming both the alias and that version is refused as the same extractor twice.
func TestOpenAlias(t *testing.T) {
	exs, err := OpenAll(context.Background(), []string{"seed", "claude-code", "windmill@67ef1eb"}, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ex := range exs {
		names = append(names, ex.Name)
	}
	if got, want := strings.Join(names, " "), "seed claude-code@2.1.332 windmill@67ef1eb"; got != want {
		t.Errorf("OpenAll(seed, claude-code, windmill@67ef1eb) names = %s, want %s", got, want)
	}
	for _, values := range [][]string{{"claude-code", "claude-code@2.1.332"}, {"windmill@10cd0dc", "windmill"}} {
		if _, err := OpenAll(context.Background(), values, OpenOptions{}); err == nil || !strings.Contains(err.Error(), "given twice") {
			t.Errorf("OpenAll(%q) = %v, want an error: given twice", values, err)
		}
	}
}
