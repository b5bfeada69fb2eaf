package eval

import (
	"os"
	"strings"
	"testing"
)

func TestHalfOf(t *testing.T) {
	// The split is a fixed rule: these are the halves docs/validity.md reports.
	for repo, want := range map[string]string{
		"badlogic/pi-mono":           TuningHalf,  // SHA-256 starts f0
		"Crazytieguy/alignment-hive": TuningHalf,  // a0
		"marot/spotter":              HeldOutHalf, // f5
		"entireio/cli":               HeldOutHalf, // 7d
	} {
		if got := HalfOf(repo); got != want {
			t.Errorf("HalfOf(%q) = %s, want %s", repo, got, want)
		}
	}
}

func TestReadValiditySources(t *testing.T) {
	good := "# comment\n\na.jsonl\to/r\tc0mm1t\tp/a.jsonl\tabc\tpi\n"
	got, err := ReadValiditySources(strings.NewReader(good), "sources.tsv")
	if err != nil || len(got) != 1 || got[0] != (ValiditySource{"a.jsonl", "o/r", "c0mm1t", "p/a.jsonl", "abc", "pi"}) {
		t.Errorf("ReadValiditySources(good) = %v, %v", got, err)
	}
	for _, tc := range []struct{ in, want string }{
		{in: "a.jsonl\to/r\tc\tp\n", want: "sources.tsv:1: 4 tab-separated fields, want 6"},
		{in: "# x\na\to/r\tc\tp\ts\tpi\na\to/r\tc\tp\ts\tpi\n", want: "sources.tsv:3: name a is already on line 2"},
		{in: "a\tnoslash\tc\tp\ts\tpi\n", want: `sources.tsv:1: repository "noslash" is not owner/name`},
	} {
		_, err := ReadValiditySources(strings.NewReader(tc.in), "sources.tsv")
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("ReadValiditySources(%q) error = %v, want %s", tc.in, err, tc.want)
		}
	}
}

func TestValiditySourcesFile(t *testing.T) {
	// The committed list reads, and its files come from at least 10 projects.
	f := mustOpen(t, validitySources)
	got, err := ReadValiditySources(f, validitySources)
	if err != nil {
		t.Fatal(err)
	}
	repos := map[string]bool{}
	for _, s := range got {
		repos[s.Repository] = true
	}
	if len(repos) < 10 {
		t.Errorf("%s lists files of %d repositories, want at least 10", validitySources, len(repos))
	}
}

func mustOpen(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
