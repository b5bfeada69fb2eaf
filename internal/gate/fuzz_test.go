package gate

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/fuzz"
)

// TestParseConfigFuzz: the fuzz: section is decoded as strictly as the rest of gate.yaml: a
// kind fuzz does not report, a misspelled key and a value of the wrong kind are errors at
// their line, with the closest name.
func TestParseConfigFuzz(t *testing.T) {
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"a kind and a property", "version: 1\nfuzz:\n  accept:\n    seed: [tag-kept:summary, superlinear-time]\n", ""},
		{"a module's name as key", "version: 1\nfuzz:\n  accept:\n    \"module:src/compaction.ts\":\n      - analysis-leak:between-summaries\n      - superlinear-time:summary-openers\n", ""},
		{"empty section", "version: 1\nfuzz: {}\n", ""},
		{"misspelled kind", "version: 1\nfuzz:\n  accept:\n    seed:\n      - tag-kept:summary\n      - tag-kep:/summary\n",
			`g.yaml:6: fuzz.accept.seed names "tag-kep:/summary", which is no kind of fuzz failure (did you mean "tag-kept:/summary"?`},
		{"unknown detail", "version: 1\nfuzz:\n  accept:\n    seed: [tag-kept:summary]\n    robust: [bare-tag:paragraph]\n",
			`g.yaml:5: fuzz.accept.robust names "bare-tag:paragraph", which is no kind of fuzz failure (a kind is`},
		{"unknown property", "version: 1\nfuzz:\n  accept:\n    robust: [slow]\n", `g.yaml:4: fuzz.accept.robust names "slow"`},
		{"the first of two, in file order", "version: 1\nfuzz:\n  accept:\n    zeta: [nope]\n    alpha: [nada]\n", `g.yaml:4: fuzz.accept.zeta names "nope"`},
		{"misspelled key", "version: 1\nfuzz:\n  acept:\n    seed: [tag-kept]\n", "g.yaml:3: unknown key acept (did you mean accept?); the keys there are accept"},
		{"a kind, not a list", "version: 1\nfuzz:\n  accept:\n    seed: tag-kept\n", "g.yaml:4: `tag-kept` is not a list of strings"},
	} {
		cfg, err := ParseConfig("g.yaml", []byte(tc.doc))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: ParseConfig(%q) = %v, want no error", tc.name, tc.doc, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrConfig)):
			t.Errorf("%s: ParseConfig(%q) = %v, want an ErrConfig containing %q", tc.name, tc.doc, err, tc.want)
		case tc.want == "" && tc.name == "a kind and a property":
			if got, want := cfg.Fuzz.Accepted("seed"), []string{"tag-kept:summary", "superlinear-time"}; !slices.Equal(got, want) {
				t.Errorf("%s: Accepted(seed) = %v, want %v", tc.name, got, want)
			}
			if got := cfg.Fuzz.Accepted("robust"); got != nil {
				t.Errorf("%s: Accepted(robust) = %v, want nothing", tc.name, got)
			}
		}
	}
}

// TestFuzzKindsInSchema: gate.schema.json's list of fuzz kinds is fuzz's, so that the schema
// refuses what ParseConfig refuses.
func TestFuzzKindsInSchema(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "schema", "gate.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Defs struct {
			FuzzKind struct {
				Enum []string `json:"enum"`
			} `json:"fuzzKind"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, k := range append(append([]string{}, fuzz.Properties...), fuzz.Kinds()...) {
		if !slices.Contains(want, k) {
			want = append(want, k)
		}
	}
	if !slices.Equal(doc.Defs.FuzzKind.Enum, want) {
		t.Errorf("gate.schema.json's fuzzKind enum = %q,\nwant fuzz.Properties then fuzz.Kinds: %q", doc.Defs.FuzzKind.Enum, want)
	}
}
