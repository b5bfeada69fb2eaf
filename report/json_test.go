package report

import (
	"bytes"
	"testing"

	"github.com/compacteval/compacteval/eval"
	"github.com/google/go-cmp/cmp"
)

// TestWriteIsOneEncoding holds Write, which encodes the cases one at a time, to the
// encoding of the whole document at once, on the blessed baseline and on reports whose
// lists are empty, nil or hold one element.
func TestWriteIsOneEncoding(t *testing.T) {
	baseline, err := Read("../reports/baseline.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(baseline.Cases) < 2 || len(baseline.Eval.Cases) < 2 {
		t.Fatalf("the baseline has %d cases and %d eval cases: want two of each at least", len(baseline.Cases), len(baseline.Eval.Cases))
	}
	one := *baseline
	one.Cases, one.Eval.Cases = one.Cases[:1], one.Eval.Cases[:1]
	one.Cases[0].Response = "<summary>&\u2028</summary>" // not escaped, as the document writes it
	empty := *baseline
	empty.Cases, empty.Eval.Cases = []Case{}, []eval.Result{}
	null := *baseline
	null.Cases, null.Eval.Cases = nil, nil
	noEval := *baseline
	noEval.Eval = eval.Report{}
	for _, tc := range []struct {
		name string
		r    *Report
	}{
		{"baseline", baseline},
		{"one of each", &one},
		{"empty lists", &empty},
		{"nil lists", &null},
		{"no eval", &noEval},
		{"nothing", &Report{}},
	} {
		want, err := encode(tc.r, "")
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := Write(&got, tc.r); err != nil {
			t.Fatalf("%s: Write: %v", tc.name, err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: Write differs from the encoding of the whole document (-want +got):\n%s", tc.name, cmp.Diff(string(want), got.String()))
		}
	}
}
