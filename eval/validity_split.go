package eval

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"io"
	"strings"
)

// Halves of the real validity set. The split is fixed before any tuning: a scorer change
// is tuned on TuningHalf only, and HeldOutHalf says whether it holds on sessions it was not
// tuned on.
const (
	TuningHalf  = "tuning"
	HeldOutHalf = "held-out"
	// UnlistedHalf holds sessions that sources.tsv does not list: sessions nobody here has
	// seen, kept outside the repository.
	UnlistedHalf = "unlisted"
)

// HalfOf returns the half a repository's sessions fall in: TuningHalf when the first byte of
// the SHA-256 of its name (owner/name, as written) is even, HeldOutHalf when it is odd. A
// whole project lands on one side, so that project-wide names cannot leak from one half
// into the other.
func HalfOf(repository string) string {
	if sha256.Sum256([]byte(repository))[0]%2 == 0 {
		return TuningHalf
	}
	return HeldOutHalf
}

// ValiditySource is one row of eval/validity/sources.tsv.
type ValiditySource struct {
	Name, Repository, Commit, Path, SHA256, Agent string
}

// ReadValiditySources reads the rows of a sources.tsv: name, repository, commit, path,
// SHA-256 and agent, tab-separated; blank lines and lines starting with # are skipped.
// file names the input in errors, which carry its line number.
func ReadValiditySources(r io.Reader, file string) ([]ValiditySource, error) {
	var out []ValiditySource
	sc := bufio.NewScanner(r)
	seen := map[string]int{}
	for line := 1; sc.Scan(); line++ {
		t := sc.Text()
		if strings.TrimSpace(t) == "" || strings.HasPrefix(t, "#") {
			continue
		}
		f := strings.Split(t, "\t")
		if len(f) != 6 {
			return nil, fmt.Errorf("%s:%d: %d tab-separated fields, want 6 (name, repository, commit, path, sha256, agent)", file, line, len(f))
		}
		if prev, ok := seen[f[0]]; ok {
			return nil, fmt.Errorf("%s:%d: name %s is already on line %d", file, line, f[0], prev)
		}
		if !strings.Contains(f[1], "/") {
			return nil, fmt.Errorf("%s:%d: repository %q is not owner/name", file, line, f[1])
		}
		seen[f[0]] = line
		out = append(out, ValiditySource{f[0], f[1], f[2], f[3], f[4], f[5]})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", file, err)
	}
	return out, nil
}
