package schema

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/gate"
	"github.com/rogpeppe/go-internal/txtar"
)

// TestScriptDocuments: the YAML files of the CLI's test scripts agree with the schemas: a
// case file that corpus.Parse accepts matches case.schema.json, and a gate config matches
// gate.schema.json exactly when gate.ParseConfig accepts it (the scripts hold broken
// configs on purpose: a misspelled key, NaN, a share over 1).
func TestScriptDocuments(t *testing.T) {
	s := compiled(t)
	scripts, err := filepath.Glob(root + "/cmd/compacteval/testdata/script/*.txtar")
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no test scripts: %v", err)
	}
	cases, configs := 0, 0
	for _, script := range scripts {
		a, err := txtar.ParseFile(script)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if !strings.HasSuffix(f.Name, ".yaml") {
				continue
			}
			name := filepath.Base(script) + ":" + f.Name
			if strings.Contains(string(f.Data), "\nresponse:") {
				if _, err := corpus.Parse(name, f.Data, ""); err != nil {
					continue // a broken case on purpose; the schema checks less than lint
				}
				cases++
				if err := s.ValidateYAML("case", name, f.Data); err != nil {
					t.Errorf("corpus.Parse accepts what case.schema.json refuses:\n%v", err)
				}
				continue
			}
			configs++
			_, perr := gate.ParseConfig(name, f.Data)
			serr := s.ValidateYAML("gate", name, f.Data)
			switch {
			case perr == nil && serr != nil:
				t.Errorf("gate.ParseConfig accepts what gate.schema.json refuses:\n%v", serr)
			case perr != nil && serr == nil:
				t.Errorf("gate.schema.json accepts what gate.ParseConfig refuses: %v", perr)
			}
		}
	}
	t.Logf("checked %d case files and %d gate configs", cases, configs)
	if cases < 10 || configs < 5 {
		t.Errorf("checked %d case files and %d gate configs of the scripts, want at least 10 and 5", cases, configs)
	}
}
