package corpus_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/compacteval/compacteval/corpus"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// go test -run='^$' -fuzz='^FuzzParseCase$' -fuzztime=30s ./corpus
//
// FuzzParseCase reads any bytes as a case file. A file that parses without problems must
// survive Format and Parse unchanged, and Format must be idempotent; a file with problems
// must say where. Case files over 32 KB are left out of the seeds (TestRoundTrip covers
// them): mutating them costs the fuzzer more than it finds.
func FuzzParseCase(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(casesDir, "*", "*.yaml"))
	bad, _ := filepath.Glob(filepath.Join("testdata", "bad", "*.yaml"))
	for _, file := range append(files, bad...) {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		if len(data) <= 32<<10 {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := corpus.Parse("case.yaml", data, "")
		if err != nil {
			ps, ok := err.(corpus.Problems)
			if !ok || len(ps) == 0 {
				t.Fatalf("Parse error %v is not a non-empty Problems", err)
			}
			for _, p := range ps {
				if p.File != "case.yaml" || p.Msg == "" {
					t.Fatalf("problem %+v does not name the file and a message", p)
				}
			}
			return
		}
		out, err := corpus.Format(c)
		if err != nil {
			return // a text holding the formatter's placeholder: reported, not lost
		}
		back, err := corpus.Parse("case.yaml", out, "")
		if err != nil {
			t.Fatalf("Parse(Format(c)) failed: %v\ninput:\n%s\nformatted:\n%s", err, data, out)
		}
		// SHA256 is the digest of the file's bytes: the same where Format kept them, another
		// where it rewrote a case that was not canonical (a line of spaces alone in a block
		// scalar becomes a quoted string).
		if string(out) == string(data) && back.SHA256 != c.SHA256 {
			t.Fatalf("Parse(Format(c)) of a canonical case: SHA256 %s, want %s", back.SHA256, c.SHA256)
		}
		if diff := cmp.Diff(c, back, cmpopts.IgnoreFields(corpus.Case{}, "SHA256")); diff != "" {
			t.Fatalf("Parse(Format(c)) mismatch (-want +got):\n%s\ninput:\n%q\nformatted:\n%q", diff, data, out)
		}
		if again, _ := corpus.Format(back); string(again) != string(out) {
			t.Fatalf("Format is not idempotent:\n%q\n%q", out, again)
		}
	})
}
