package eval

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"sort"
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

// MaxProjectShare is the most of a half's compactions one project may hold. A project
// over it keeps only its first compactions in CapOrder (ProjectCap says how many); the
// rest are counted apart, over the cap, so that no one project's figures stand for a half.
const MaxProjectShare = 0.20

// ProjectCap returns k, the most compactions each project of a half may keep so that none
// holds more than MaxProjectShare of what the half keeps: the largest k with
// k <= MaxProjectShare * sum(min(n, k)) over the projects' counts n. When no project needs
// the cap, k is the largest count. ok is false when no k >= 1 fits (a half of fewer than
// 1/MaxProjectShare projects cannot be balanced); k is then the largest count, nothing is
// capped, and the caller says so.
//
// The sum grows by the number of projects with more than k compactions when k grows by
// one, and that number only falls, so the k that fit are 0 to the largest one: counting up
// until one does not fit finds it.
func ProjectCap(counts []int) (k int, ok bool) {
	most := 0
	for _, n := range counts {
		most = max(most, n)
	}
	for k < most {
		next, kept := k+1, 0
		for _, n := range counts {
			kept += min(n, next)
		}
		if float64(next) > MaxProjectShare*float64(kept) {
			break
		}
		k = next
	}
	if k == 0 && most > 0 {
		return most, false
	}
	return k, true
}

// CapOrder sorts the compaction ids of one project into the order the cap keeps them in:
// by the SHA-256 of the id, a fixed order that neither the file names' order nor the
// compactions' dates decide.
func CapOrder(ids []string) {
	key := func(id string) string {
		h := sha256.Sum256([]byte(id))
		return hex.EncodeToString(h[:])
	}
	sort.Slice(ids, func(i, j int) bool {
		if ki, kj := key(ids[i]), key(ids[j]); ki != kj {
			return ki < kj
		}
		return ids[i] < ids[j]
	})
}

// ProjectTallies tallies the verdicts of pairs on each measure by project, over every
// ablation but the shuffle; projectOf maps a pair's case (an Input ID) to its project.
func ProjectTallies(pairs []Pair, projectOf func(caseID string) string) map[string]*[measureCount]Tally {
	out := map[string]*[measureCount]Tally{}
	for _, p := range pairs {
		if p.Ablation == AblationShuffled {
			continue
		}
		name := projectOf(p.Case)
		t := out[name]
		if t == nil {
			t = &[measureCount]Tally{}
			out[name] = t
		}
		for k, verdict := range p.Verdicts {
			t[k].add(verdict, p.Former[k])
		}
	}
	return out
}

// ProjectMeans returns, for each measure, the mean over projects of the share of its
// applicable pairs that each project's real summaries win (ProjectTallies, Tally.Rate), and
// how many projects it averages: those with an applicable pair on that measure. Unlike the
// pooled rate, a project with many compactions weighs no more than one with few.
func ProjectMeans(pairs []Pair, projectOf func(caseID string) string) (means [measureCount]float64, projects [measureCount]int) {
	tallies := ProjectTallies(pairs, projectOf)
	names := make([]string, 0, len(tallies))
	for name := range tallies {
		names = append(names, name)
	}
	sort.Strings(names) // a fixed order of sums: the same means on every run
	for _, name := range names {
		t := tallies[name]
		for k := range t {
			if x, ok := t[k].Rate().Value(); ok {
				means[k] += x
				projects[k]++
			}
		}
	}
	for k := range means {
		if projects[k] > 0 {
			means[k] /= float64(projects[k])
		}
	}
	return means, projects
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
