package corpus_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/bincodec"
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

// go test -run='^$' -fuzz='^FuzzSpoolForm$' -fuzztime=30s ./corpus
//
// FuzzSpoolForm reads any bytes as a spooled case (internal/bincodec's form of a Case, as
// a run's spool keeps them). Bytes that are no such form are ErrMalformed, never a panic
// or another error; a case they decode to can be written again, and what that writes
// decodes to the same case. The seeds are the forms of the bundled cases whose files are
// 32 KB or less, as FuzzParseCase's.
func FuzzSpoolForm(f *testing.F) {
	cases, err := corpus.Load(casesDir)
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range cases {
		if info, err := os.Stat(c.File); err != nil || info.Size() > 32<<10 {
			continue
		}
		data, err := bincodec.Append(nil, c)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var c corpus.Case
		if err := bincodec.Decode(data, &c); err != nil {
			if !errors.Is(err, bincodec.ErrMalformed) {
				t.Fatalf("Decode error %v is not ErrMalformed", err)
			}
			return
		}
		again, err := bincodec.Append(nil, &c)
		if err != nil {
			t.Fatalf("Append of a decoded case: %v", err)
		}
		var back corpus.Case
		if err := bincodec.Decode(again, &back); err != nil {
			t.Fatalf("Decode(Append(decoded case)): %v", err)
		}
		if diff := cmp.Diff(c, back, cmpopts.EquateNaNs()); diff != "" {
			t.Fatalf("a decoded case written and read again differs (-first +again):\n%s", diff)
		}
	})
}
