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
	Tie  = "tie"  // the same: not a win
	Loss = "loss" // the ablation scores higher
	// NoContrast: the ablation removed nothing the measure can see: the measure has
	// nothing to count (no fact before the cut, no fact in the window), or a deletion
	// removed no line that holds a fact the measure counts. Counted apart from the
	// pairs judged, never dropped.
	NoContrast = "no contrast"
	// NotApplicable is a verdict of the former rule only (Pair.Former): a pair it left
	// out, whose real summary scores 0 or whose deletion leaves the measure equal.
	NotApplicable = "n/a"
	// NotTargeted: an ablation a measure is not meant to see, judged on the others.
	// Coverage reads the whole summary, and the recent sections (Current Work, Next Step)
	// mostly restate what its earlier sections name: deleting them is boundary coverage's
	// test (and the score's), not coverage's. Such pairs are counted apart, with their
	// strict verdicts (Pair.Untargeted, Tally.Untargeted), never dropped.
	NotTargeted = "not targeted"
)

// untargeted lists, per ablation, the measures (ValidityMeasures positions) it does not
// test: the recent sections deleted is no test of coverage.
var untargeted = map[string][]int{AblationRecentGone: {0, 2}}

// Pair is one comparison of a real summary with an ablation of it.
type Pair struct {
	Case     string `json:"case"`
	Ablation string `json:"ablation"`
	// Real and Ablated are the coverage, boundary coverage and score of each, as text
	// (hit/of, or the score); Verdicts the outcome on each, in ValidityMeasures order.
	Real     [measureCount]string `json:"real"`
	Ablated  [measureCount]string `json:"ablated"`
	Verdicts [measureCount]string `json:"verdicts"`
	// Former are the verdicts under the former rule, which left out as not applicable
	// a pair whose real summary scores 0 and a deletion that ties; printed beside the
	// strict rule, never instead of it.
	Former [measureCount]string `json:"former_verdicts"`
	// Untargeted holds, for a measure whose verdict is NotTargeted, the strict verdict it
	// would have had.
	Untargeted [measureCount]string `json:"untargeted_verdicts"`
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
	Wins, Ties, Losses, NoContrast int
	// NotTargeted counts the pairs of an ablation the measure is not meant to see;
	// Untargeted their wins under the strict rule (a tie is no win).
	NotTargeted int
	Untargeted  Share
	// Former counts the wins of the pairs the former rule judged (see Pair.Former).
	Former Share
}

// Rate returns the wins of the pairs judged: a tie is not a win; the pairs of no contrast
// are left out (NoContrastRate reports them).
func (t Tally) Rate() Share { return Share{Hit: t.Wins, Of: t.Wins + t.Ties + t.Losses} }

// NoContrastRate returns the pairs of no contrast among all the pairs.
func (t Tally) NoContrastRate() Share {
	return Share{Hit: t.NoContrast, Of: t.Wins + t.Ties + t.Losses + t.NoContrast}
}

func (t *Tally) add(verdict, former string) {
	switch verdict {
	case Win:
		t.Wins++
	case Tie:
		t.Ties++
	case Loss:
		t.Losses++
	case NotTargeted:
		t.NotTargeted++
		return
	default:
		t.NoContrast++
	}
	if former != NotApplicable {
		t.Former.count(former == Win)
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
			t[k].add(verdict, p.Former[k])
			if verdict == NotTargeted {
				t[k].Untargeted.count(p.Untargeted[k] == Win)
			}
			if p.Ablation != AblationShuffled {
				out["all"][k].add(verdict, p.Former[k])
				if verdict == NotTargeted {
					out["all"][k].Untargeted.count(p.Untargeted[k] == Win)
				}
			}
		}
	}
	return out
}

// Validate checks that scores rank each real summary above its ablations (see Ablations)
// and the shuffle equal to it. The other-case ablation of an input takes the summary of the
// next input, in order and wrapping around, that has a summary, a different conversation
// and comes from another file (two compactions of one session share much of theirs).
//
// A pair is won on a measure only when the real summary scores strictly higher. It is of
// no contrast (NoContrast) when the measure has nothing to count, or when the ablation is
// a deletion that ties and whose removed lines hold no fact the measure counts; a real
// summary that scores 0 against a replacement ties or loses.
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
		lay := parseLayout(summaries[i])
		var frame Result // the headings and fences alone: what a removed part is seen against
		framed := false
		for _, a := range Ablations(in, summaries[i], other, opt) {
			ar := p.score(a.Summary, Result{Found: true, Path: "given"})
			pair := Pair{Case: in.ID, Ablation: a.Name, Real: measures(got), Ablated: measures(ar)}
			pair.Verdicts = verdicts(got, ar)
			pair.Former = formerVerdicts(got, pair.Verdicts, a.Removed != nil)
			switch {
			case a.Name == AblationShuffled:
				pair.Verdicts = shuffleVerdicts(got, ar)
				pair.Former = pair.Verdicts
			case a.Removed != nil:
				if !framed {
					frame, framed = p.score(keepLines(lay, nil), Result{Found: true, Path: "given"}), true
				}
				removed := p.score(keepLines(lay, a.Removed), Result{Found: true, Path: "given"})
				seen := visible(removed, frame)
				for k := range pair.Verdicts {
					// A measure the deletion moved saw it, whatever the removed lines hold
					// alone (a request's words can be spread over several lines).
					if !seen[k] && pair.Verdicts[k] == Tie {
						pair.Verdicts[k] = NoContrast
					}
				}
			}
			for _, k := range untargeted[a.Name] {
				pair.Untargeted[k], pair.Verdicts[k] = pair.Verdicts[k], NotTargeted
			}
			v.Pairs = append(v.Pairs, pair)
		}
	}
	return v
}

// keepLines returns the summary's headings and fence delimiters, which give every line its
// role, and the lines listed in also: a deletion's removed lines, read where they stood.
func keepLines(lay layout, also []int) string {
	keep := make([]bool, len(lay.lines))
	for _, i := range also {
		keep[i] = true
	}
	var out []string
	for i, l := range lay.lines {
		if keep[i] || l.heading || l.fence {
			out = append(out, l.text)
		}
	}
	return strings.Join(out, "\n")
}

// visible says, per measure, whether removed (the removed lines with the headings) holds a
// fact the measure counts that frame (the headings alone) does not. A part that re-tells
// the kept tail is visible to the score, whose penalty its removal lowers.
func visible(removed, frame Result) [measureCount]bool {
	more := func(a, b Share) bool { return a.Hit > b.Hit }
	moreWeighted := func(a, b Weighted) bool { return a.Hit > b.Hit+1e-9 }
	cov, bound := more(removed.Coverage, frame.Coverage), more(removed.BoundaryCoverage, frame.BoundaryCoverage)
	// Section 3 alone earns part of a window fact's weight and no count.
	wbound := moreWeighted(removed.WeightedBoundaryCoverage, frame.WeightedBoundaryCoverage)
	return [measureCount]bool{cov, bound, cov, wbound,
		cov || wbound || more(removed.ConstraintsVerbatim, frame.ConstraintsVerbatim) || more(removed.TailLeakage, frame.TailLeakage)}
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

// verdicts compares real with an ablation on each measure under the strict rule: a win only
// when real scores strictly higher; no contrast only when the measure has nothing to count.
func verdicts(real, abl Result) [measureCount]string {
	share := func(a, b Share) string {
		switch {
		case a.Of == 0:
			return NoContrast
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
		case a.Of == 0:
			return NoContrast
		case math.Abs(a.Hit-b.Hit) < 1e-9:
			return Tie
		case a.Hit > b.Hit:
			return Win
		}
		return Loss
	}
	out := [measureCount]string{share(real.Coverage, abl.Coverage), share(real.BoundaryCoverage, abl.BoundaryCoverage),
		weighted(real.WeightedCoverage, abl.WeightedCoverage), weighted(real.WeightedBoundaryCoverage, abl.WeightedBoundaryCoverage), NoContrast}
	if real.Score != nil {
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

// formerVerdicts returns the verdicts of the former rule from the strict ones: not
// applicable where the real summary scores 0 and, for a deletion, where it ties.
func formerVerdicts(real Result, strict [measureCount]string, deletion bool) [measureCount]string {
	zero := [measureCount]bool{real.Coverage.Hit == 0, real.BoundaryCoverage.Hit == 0,
		real.WeightedCoverage.Hit == 0, real.WeightedBoundaryCoverage.Hit == 0, real.Score == nil || *real.Score == 0}
	var out [measureCount]string
	for k, verdict := range strict {
		out[k] = verdict
		if verdict == NoContrast || zero[k] || deletion && verdict == Tie {
			out[k] = NotApplicable
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

// FormatTallies renders tallies as a Markdown table: per ablation, on each measure the wins
// of the pairs judged under the strict rule (a tie is not a win), then the pairs of no
// contrast per measure, and the wins under the former rule (Pair.Former) beside.
func FormatTallies(tallies map[string]*[measureCount]Tally) string {
	var b strings.Builder
	b.WriteString("| ablation | coverage | boundary coverage | weighted coverage | weighted boundary | score | no contrast (cov, bound, w. cov, w. bound, score) | former rule (cov, bound, score) |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
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
			switch {
			case name == AblationShuffled:
				r.Hit = t[k].Ties
			case r.Of == 0 && t[k].NotTargeted > 0:
				fmt.Fprintf(&b, " not targeted: %s |", percent(t[k].Untargeted))
				continue
			case t[k].NotTargeted > 0:
				all := Share{Hit: r.Hit + t[k].Untargeted.Hit, Of: r.Of + t[k].Untargeted.Of}
				fmt.Fprintf(&b, " %s; with the not targeted %s |", percent(r), percent(all))
				continue
			}
			fmt.Fprintf(&b, " %s |", percent(r))
		}
		nc := make([]string, len(t))
		for k := range t {
			nc[k] = strconv.Itoa(t[k].NoContrast)
		}
		all := 0 // the pairs judged or of no contrast on some measure
		for k := range t {
			all = max(all, t[k].NoContrastRate().Of)
		}
		fmt.Fprintf(&b, " %s of %d |", strings.Join(nc, ", "), all)
		if name == AblationShuffled {
			b.WriteString(" - |\n")
			continue
		}
		fmt.Fprintf(&b, " %s, %s, %s |\n", percent(t[0].Former), percent(t[1].Former), percent(t[4].Former))
	}
	return b.String()
}

// percent renders a share as "95.0% (19/20)", or "-" when it has nothing to count.
func percent(s Share) string {
	v, ok := s.Value()
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.1f%% (%d/%d)", 100*v, s.Hit, s.Of)
}
