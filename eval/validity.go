package eval

import (
	"fmt"
	"hash/fnv"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/compacteval/compacteval/corpus"
)

// Measures a validity check compares, in Pair order: the counts, the weighted measures
// the score reads (Result.WeightedCoverage), and the score.
var ValidityMeasures = [measureCount]string{"coverage", "boundary_coverage", "weighted_coverage", "weighted_boundary_coverage", "score"}

// measureCount is the number of ValidityMeasures.
const measureCount = 5

// Verdicts of a pair on one measure.
const (
	Win  = "win"  // the real summary scores strictly higher
	Tie  = "tie"  // the same
	Loss = "loss" // the ablation scores higher
	// NotApplicable: the measure cannot tell them apart by design: it has nothing to
	// count, the real summary scores 0 on it, or a deletion removed no fact it counts.
	NotApplicable = "n/a"
)

// Pair is one comparison of a real summary with an ablation of it.
type Pair struct {
	Case     string `json:"case"`
	Ablation string `json:"ablation"`
	// Real and Ablated are the coverage, boundary coverage and score of each, as text
	// (hit/of, or the score); Verdicts the outcome on each, in ValidityMeasures order.
	Real     [measureCount]string `json:"real"`
	Ablated  [measureCount]string `json:"ablated"`
	Verdicts [measureCount]string `json:"verdicts"`
}

func (p Pair) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s vs %s:", p.Case, p.Ablation)
	for k, m := range ValidityMeasures {
		fmt.Fprintf(&b, " %s %s vs %s (%s)", m, p.Real[k], p.Ablated[k], p.Verdicts[k])
	}
	return b.String()
}

// Validity is the outcome of Validate.
type Validity struct {
	Pairs []Pair `json:"pairs"`
	// Skipped are the inputs that could not be compared: no summary, or no facts before
	// the cut.
	Skipped []string `json:"skipped"`
	// NotEnough are the inputs with too few facts to judge (Result.NotEnoughToJudge),
	// counted apart from the pairs.
	NotEnough []string `json:"not_enough_to_judge"`
}

// Tally counts the verdicts of some pairs on one measure.
type Tally struct {
	Wins, Ties, Losses, NotApplicable int
}

// Rate returns the wins of the applicable pairs.
func (t Tally) Rate() Share { return Share{Hit: t.Wins, Of: t.Wins + t.Ties + t.Losses} }

func (t *Tally) add(verdict string) {
	switch verdict {
	case Win:
		t.Wins++
	case Tie:
		t.Ties++
	case Loss:
		t.Losses++
	default:
		t.NotApplicable++
	}
}

// Tallies returns the tally of every ablation on each measure, and in "all" the tally of
// every ablation but the shuffle.
func (v Validity) Tallies() map[string]*[measureCount]Tally {
	out := map[string]*[measureCount]Tally{"all": {}}
	for _, p := range v.Pairs {
		t := out[p.Ablation]
		if t == nil {
			t = &[measureCount]Tally{}
			out[p.Ablation] = t
		}
		for k, verdict := range p.Verdicts {
			t[k].add(verdict)
			if p.Ablation != AblationShuffled {
				out["all"][k].add(verdict)
			}
		}
	}
	return out
}

// Validate checks that scores rank each real summary above its ablations (see Ablations)
// and the shuffle equal to it. The other-case ablation of an input takes the summary of the
// next input, in order and wrapping around, that has a summary, a different conversation
// and comes from another file (two compactions of one session share much of theirs).
func Validate(ins []Input, opt Options) Validity {
	v := Validity{Pairs: []Pair{}, Skipped: []string{}, NotEnough: []string{}}
	summaries := make([]string, len(ins))
	prints := make([]uint64, len(ins))
	found := make([]bool, len(ins))
	for i, in := range ins {
		var r Result
		summaries[i] = in.summary(opt, &r)
		found[i] = r.Found
		prints[i] = fingerprint(in.Conversation)
	}
	for i, in := range ins {
		p := prepare(in, opt)
		var head Result
		in.summary(opt, &head)
		got := p.score(summaries[i], head)
		if !got.Found || got.Coverage.Of == 0 {
			v.Skipped = append(v.Skipped, in.ID)
			continue
		}
		if got.NotEnoughToJudge {
			v.NotEnough = append(v.NotEnough, in.ID)
			continue
		}
		other := ""
		for k := 1; k < len(ins); k++ {
			j := (i + k) % len(ins)
			if found[j] && prints[j] != prints[i] && sessionOf(ins[j].Source) != sessionOf(in.Source) {
				other = summaries[j]
				break
			}
		}
		for _, a := range Ablations(in, summaries[i], other, opt) {
			ar := p.score(a.Summary, Result{Found: true, Path: "given"})
			pair := Pair{Case: in.ID, Ablation: a.Name, Real: measures(got), Ablated: measures(ar)}
			pair.Verdicts = verdicts(got, ar)
			if a.Name == AblationShuffled {
				pair.Verdicts = shuffleVerdicts(got, ar)
			} else if a.Removed != nil {
				// Measures never rise under deletion: a tie means the deletion removed no
				// fact the rest of the summary does not also hold, which the measure
				// cannot see by design.
				for k, verdict := range pair.Verdicts {
					if verdict == Tie {
						pair.Verdicts[k] = NotApplicable
					}
				}
			}
			v.Pairs = append(v.Pairs, pair)
		}
	}
	return v
}

// sessionOf returns the file a Source names: FILE for FILE:LINE.
func sessionOf(source string) string {
	if j := strings.LastIndexByte(source, ':'); j > 0 && strings.Trim(source[j+1:], "0123456789") == "" {
		return source[:j]
	}
	return source
}

func measures(r Result) [measureCount]string {
	score := "-"
	if r.Score != nil {
		score = fmt.Sprintf("%.4f", *r.Score)
	}
	weighted := func(w Weighted) string { return fmt.Sprintf("%.2f/%.2f", w.Hit, w.Of) }
	return [measureCount]string{fmt.Sprintf("%d/%d", r.Coverage.Hit, r.Coverage.Of), fmt.Sprintf("%d/%d", r.BoundaryCoverage.Hit, r.BoundaryCoverage.Of),
		weighted(r.WeightedCoverage), weighted(r.WeightedBoundaryCoverage), score}
}

func verdicts(real, abl Result) [measureCount]string {
	share := func(a, b Share) string {
		switch {
		case a.Of == 0 || a.Hit == 0:
			return NotApplicable
		case a.Hit > b.Hit:
			return Win
		case a.Hit == b.Hit:
			return Tie
		}
		return Loss
	}
	// Weighted hits are sums of the same weights in another order: equal within 1e-9.
	weighted := func(a, b Weighted) string {
		switch {
		case a.Of == 0 || a.Hit == 0:
			return NotApplicable
		case math.Abs(a.Hit-b.Hit) < 1e-9:
			return Tie
		case a.Hit > b.Hit:
			return Win
		}
		return Loss
	}
	out := [measureCount]string{share(real.Coverage, abl.Coverage), share(real.BoundaryCoverage, abl.BoundaryCoverage),
		weighted(real.WeightedCoverage, abl.WeightedCoverage), weighted(real.WeightedBoundaryCoverage, abl.WeightedBoundaryCoverage), NotApplicable}
	if real.Score != nil && *real.Score > 0 {
		b := 0.0
		if abl.Score != nil {
			b = *abl.Score
		}
		switch {
		case *real.Score > b:
			out[4] = Win
		case *real.Score == b:
			out[4] = Tie
		default:
			out[4] = Loss
		}
	}
	return out
}

// shuffleVerdicts: a shuffle must tie on every measure; anything else is a loss.
func shuffleVerdicts(real, abl Result) [measureCount]string {
	same := func(ok bool) string {
		if ok {
			return Tie
		}
		return Loss
	}
	scoreSame := real.Score == nil && abl.Score == nil || real.Score != nil && abl.Score != nil && *real.Score == *abl.Score
	sameWeighted := func(a, b Weighted) bool { return math.Abs(a.Hit-b.Hit) < 1e-9 && math.Abs(a.Of-b.Of) < 1e-9 }
	return [measureCount]string{same(real.Coverage == abl.Coverage), same(real.BoundaryCoverage == abl.BoundaryCoverage),
		same(sameWeighted(real.WeightedCoverage, abl.WeightedCoverage)), same(sameWeighted(real.WeightedBoundaryCoverage, abl.WeightedBoundaryCoverage)), same(scoreSame)}
}

func inWindow(f *Fact, start, cut int) bool {
	for _, m := range f.in {
		if m >= start && m < cut {
			return true
		}
	}
	return false
}

// SortedAblations returns the ablation names of tallies in AblationNames order, "all" last.
func SortedAblations(tallies map[string]*[measureCount]Tally) []string {
	var out []string
	for _, n := range AblationNames {
		if tallies[n] != nil {
			out = append(out, n)
		}
	}
	var rest []string
	for n := range tallies {
		if n != "all" && !contains(AblationNames, n) {
			rest = append(rest, n)
		}
	}
	sort.Strings(rest)
	return append(append(out, rest...), "all")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// fingerprint hashes a conversation, to tell cases that share one.
func fingerprint(msgs []corpus.Message) uint64 {
	h := fnv.New64a()
	for _, m := range msgs {
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00", m.Role, m.Text, m.ToolCallID)
		for _, tc := range m.ToolCalls {
			fmt.Fprintf(h, "%s\x00%s\x00%s\x00", tc.ID, tc.Name, tc.Input)
		}
	}
	return h.Sum64()
}

// FormatTallies renders tallies as a Markdown table: per ablation, the strict wins of the
// applicable pairs on each measure, and the pairs not applicable.
func FormatTallies(tallies map[string]*[measureCount]Tally) string {
	var b strings.Builder
	b.WriteString("| ablation | coverage | boundary coverage | weighted coverage | weighted boundary | score | n/a (cov, bound, w. cov, w. bound, score) |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, name := range SortedAblations(tallies) {
		t := tallies[name]
		label := name
		if name == AblationShuffled {
			label += " (ties)"
		} else if name == "all" {
			label = "**all but the shuffle**"
		}
		fmt.Fprintf(&b, "| %s |", label)
		for k := range t {
			r := t[k].Rate()
			if name == AblationShuffled {
				r.Hit = t[k].Ties
			}
			if v, ok := r.Value(); ok {
				fmt.Fprintf(&b, " %.1f%% (%d/%d) |", 100*v, r.Hit, r.Of)
			} else {
				b.WriteString(" - |")
			}
		}
		na := make([]string, len(t))
		for k := range t {
			na[k] = strconv.Itoa(t[k].NotApplicable)
		}
		fmt.Fprintf(&b, " %s |\n", strings.Join(na, ", "))
	}
	return b.String()
}
