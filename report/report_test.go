package report

import (
	"strings"
	"testing"
)

const (
	corpusDir = "../../corpus/cases"
	goldenDir = "../../corpus/golden"
)

func TestParseRefusesOtherVersions(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"schema_version": 2}`, "schema version 2"},
		{`{}`, "no schema_version"},
		{`[`, "not a compacteval report"},
		{`{"schema_version": 1, "surprise": true}`, "unknown field"},
	} {
		if _, err := Parse("r.json", []byte(tc.in)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%s) = %v, want an error with %q", tc.in, err, tc.want)
		}
	}
}
