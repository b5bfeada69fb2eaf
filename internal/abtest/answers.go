package abtest

import (
	"errors"
	"fmt"
	"strings"

	"github.com/compacteval/compacteval/internal/record"
)

// Unscorable is an input the review could not score, and why.
type Unscorable struct {
	Input  string `json:"input"`
	Reason string `json:"reason"`
}

// answers returns the text of each outcome (in job order) and, per input of the plan, why
// it cannot be scored ("" when it can). An answer whose case could not be written (a
// conversation the corpus check refuses, a case over the size bound) is scored all the
// same: it was paid for, and it is in the cache. An input is unscorable when a call of
// either side gave no answer; the reason names the first such call and how many there were.
func answers(p *Plan, outs []record.Outcome) (texts, reasons []string) {
	texts = make([]string, len(outs))
	reasons = make([]string, len(p.Inputs))
	failed := make([][]string, len(p.Inputs))
	per := len(p.Inputs) * p.Samples
	for k, o := range outs {
		var err error
		switch {
		case o.Response != nil:
			texts[k] = o.Response.Text
		case o.Err != nil:
			err = o.Err
		case o.Case != nil:
			texts[k] = o.Case.Response
		default:
			err = errors.New("the case file does not read")
		}
		if err != nil {
			i := k % per / p.Samples
			failed[i] = append(failed[i], fmt.Sprintf("%s sample %d (%s): %v", p.Sides[k/per].Name, k%p.Samples+1, p.Jobs[k].ID, oneLine(err)))
		}
	}
	for i, f := range failed {
		switch len(f) {
		case 0:
		case 1:
			reasons[i] = f[0]
		default:
			reasons[i] = fmt.Sprintf("%s (and %d more calls with no answer)", f[0], len(f)-1)
		}
	}
	return texts, reasons
}

// oneLine returns an error's text on one line, at most 300 bytes.
func oneLine(err error) string {
	s := strings.Join(strings.Fields(err.Error()), " ")
	if len(s) > 300 {
		s = s[:297] + "..."
	}
	return s
}

// NoInputError is Score's error when no input could be scored.
type NoInputError struct {
	Unscorable []Unscorable
}

func (e *NoInputError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "no input could be scored (%d without an answer)", len(e.Unscorable))
	for _, u := range e.Unscorable[:min(len(e.Unscorable), 5)] {
		fmt.Fprintf(&b, "\n  %s: %s", u.Input, u.Reason)
	}
	if len(e.Unscorable) > 5 {
		fmt.Fprintf(&b, "\n  and %d more", len(e.Unscorable)-5)
	}
	return b.String()
}
