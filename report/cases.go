package report

import (
	"iter"

	"github.com/compacteval/compacteval/eval"
)

// CaseSource holds a report's cases outside the Report, so that a program that makes a
// large report need not hold them: compacteval run keeps them in a file while it runs and
// renders them from there one at a time.
type CaseSource interface {
	// Len returns the number of cases.
	Len() int
	// All yields the cases in report order, each a Case of its own, or an error that ends
	// the sequence.
	All() iter.Seq2[*Case, error]
}

// NumCases returns the number of the report's cases: those of Stored when it is set,
// otherwise those of Cases.
func (r *Report) NumCases() int {
	if r.Stored != nil {
		return r.Stored.Len()
	}
	return len(r.Cases)
}

// AllCases yields the report's cases in order, one at a time: those of Stored when it is
// set, otherwise those of Cases (a pointer into the slice, never an error).
func (r *Report) AllCases() iter.Seq2[*Case, error] {
	if r.Stored != nil {
		return r.Stored.All()
	}
	return func(yield func(*Case, error) bool) {
		for i := range r.Cases {
			if !yield(&r.Cases[i], nil) {
				return
			}
		}
	}
}

// EvalSource holds a report's eval cases outside the Report, as CaseSource holds its
// cases: compacteval run keeps them in a file while it runs.
type EvalSource interface {
	// Len returns the number of eval cases.
	Len() int
	// All yields the eval cases in report order, each a Result of its own, or an error
	// that ends the sequence.
	All() iter.Seq2[*eval.Result, error]
}

// NumEvalCases returns the number of the report's eval cases: those of StoredEval when it
// is set, otherwise those of Eval.Cases.
func (r *Report) NumEvalCases() int {
	if r.StoredEval != nil {
		return r.StoredEval.Len()
	}
	return len(r.Eval.Cases)
}

// AllEvalCases yields the report's eval cases in order, one at a time: those of StoredEval
// when it is set, otherwise those of Eval.Cases (a pointer into the slice, never an error).
func (r *Report) AllEvalCases() iter.Seq2[*eval.Result, error] {
	if r.StoredEval != nil {
		return r.StoredEval.All()
	}
	return func(yield func(*eval.Result, error) bool) {
		for i := range r.Eval.Cases {
			if !yield(&r.Eval.Cases[i], nil) {
				return
			}
		}
	}
}
