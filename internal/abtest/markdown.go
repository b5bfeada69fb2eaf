package abtest

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

// MovedShown is how many of the inputs that moved most the renderings show.
const MovedShown = 3

// factsShown is how many missed facts a rendering lists per summary.
const factsShown = 8

// Headline returns the verdict as the first line of a rendering says it.
func (r *Result) Headline() string {
	v := r.Verdict
	what := map[string]string{Better: "head is better", Worse: "head is worse", NoDifference: "no difference this run can detect"}[v.Verdict]
	return fmt.Sprintf("%s: headline score %s (95%% interval %s to %s)", what, signed(v.Mean), signed(v.Low), signed(v.High))
}

// Moved returns the inputs whose headline score moved most, largest first (ties in input
// order), at most n, and only those that moved.
func (r *Result) Moved(n int) []InputResult {
	var moved []InputResult
	for _, in := range r.Inputs {
		if d, ok := in.Delta[MeasureScore]; ok && d != 0 {
			moved = append(moved, in)
		}
	}
	sort.SliceStable(moved, func(a, b int) bool {
		return math.Abs(moved[a].Delta[MeasureScore]) > math.Abs(moved[b].Delta[MeasureScore])
	})
	return moved[:min(n, len(moved))]
}

// Markdown writes the result for a pull-request comment: the verdict and its interval,
// the inputs that moved most (base's and head's first sample, with the facts each
// missed), the table of every measure, the summaries lost, and the tokens and cost.
func Markdown(w io.Writer, r *Result) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## Prompt A/B review: %s\n\n", r.Headline())
	fmt.Fprintf(&b, "%s × %s per side, %s model %s.", plural(len(r.Inputs), "input"), plural(r.Samples, "sample"), r.Provider, r.Model)
	if d := r.Verdict.Detectable; d != nil {
		fmt.Fprintf(&b, " The smallest difference this run would detect is %.3f.", *d)
	}
	b.WriteString("\n\n")
	fmt.Fprintf(&b, "- base: %s\n- head: %s\n\n", r.Base.Desc, r.Head.Desc)
	if len(r.Failures) > 0 {
		b.WriteString("**The review fails:**\n\n")
		for _, f := range r.Failures {
			fmt.Fprintf(&b, "- %s\n", f)
		}
		b.WriteString("\n")
	}

	moved := r.Moved(MovedShown)
	b.WriteString("### Inputs that moved most\n\n")
	if len(moved) == 0 {
		b.WriteString("No input's headline score moved.\n\n")
	}
	for _, in := range moved {
		fmt.Fprintf(&b, "#### %s: %s\n\n", in.ID, signed(in.Delta[MeasureScore]))
		for _, side := range []struct {
			name    string
			samples []SampleResult
		}{{"base", in.Base}, {"head", in.Head}} {
			s := side.samples[0]
			fmt.Fprintf(&b, "<details><summary>%s, sample 1: score %s; missed %d facts</summary>\n\n", side.name, value(s.Values, MeasureScore), len(s.Missed))
			if !s.Found {
				b.WriteString("No summary found in the answer.\n\n")
			} else {
				fence := "```"
				for strings.Contains(s.Summary, fence) {
					fence += "`"
				}
				fmt.Fprintf(&b, "%stext\n%s\n%s\n\n", fence, s.Summary, fence)
			}
			if len(s.Missed) > 0 {
				fmt.Fprintf(&b, "Missed: %s\n\n", listFacts(s.Missed))
			}
			b.WriteString("</details>\n\n")
		}
	}

	b.WriteString("### Measures\n\n")
	b.WriteString("| measure | base | head | head − base | 95% interval | detectable | inputs | verdict |\n")
	b.WriteString("|---|---:|---:|---:|---|---:|---:|---|\n")
	for _, c := range r.Measures {
		det := "-"
		if c.Detectable != nil {
			det = fmt.Sprintf("%.3f", *c.Detectable)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s to %s | %s | %d | %s |\n", c.Measure, ptr(c.Base), ptr(c.Head),
			signed(c.Mean), signed(c.Low), signed(c.High), det, c.N, c.Verdict.Verdict)
	}
	b.WriteString("\nTail leakage and summaries lost are better lower. A lost summary scores 0.\n\n")

	b.WriteString("### Summaries lost\n\n")
	if len(r.Lost) == 0 {
		b.WriteString("None.\n\n")
	}
	for _, l := range r.Lost {
		fmt.Fprintf(&b, "- %s: %s, sample %d (%s)\n", l.Side, l.Input, l.Sample, l.Case)
	}
	if len(r.Lost) > 0 {
		b.WriteString("\n")
	}

	b.WriteString("### Tokens and cost\n\n| side | answers | tokens in | tokens out | cost |\n|---|---:|---:|---:|---:|\n")
	for _, s := range []struct {
		name string
		info SideInfo
	}{{"base", r.Base}, {"head", r.Head}} {
		cost := "unknown (-price)"
		if s.info.Cost != nil {
			cost = fmt.Sprintf("$%.4f", *s.info.Cost)
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %s |\n", s.name, s.info.Calls, s.info.TokensIn, s.info.TokensOut, cost)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func listFacts(fs []string) string {
	shown := fs[:min(len(fs), factsShown)]
	s := "`" + strings.Join(shown, "`, `") + "`"
	if len(fs) > len(shown) {
		s += fmt.Sprintf(" and %d more", len(fs)-len(shown))
	}
	return s
}

func value(vs map[string]float64, m string) string {
	if v, ok := vs[m]; ok {
		return fmt.Sprintf("%.3f", v)
	}
	return "-"
}

func ptr(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.3f", *v)
}

// signed writes a difference with its sign, zero as +0.000.
func signed(x float64) string {
	if x == 0 {
		return "+0.000"
	}
	return fmt.Sprintf("%+.3f", x)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
