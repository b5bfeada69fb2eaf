package gate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/compacteval/compacteval/internal/render"
)

// JUnit renders the verdict as JUnit XML: one testsuite, one testcase per family of checks
// and extractor (Result.Families: classname the extractor, or "run" and "eval"; name the
// family), so that a pass and a failure have the same testcases and a CI's trend graph
// compares like with like. A failing testcase's message counts its regressions; its body
// lists them, one "case: metric was -> now (allowed)" line each. system-out counts the
// family's checks.
func JUnit(res Result) ([]byte, error) {
	s := render.JUnitSuite{Name: "compacteval gate"}
	for i, regs := range res.ByFamily() {
		f := res.Families[i]
		c := render.JUnitCase{Name: f.Name, Classname: familyClass(f), SystemOut: render.JUnitText(plural(f.Checks, "check") + "\n")}
		if len(regs) > 0 {
			lines := make([]string, len(regs))
			for j, r := range regs {
				lines[j] = r.String()
			}
			msg := fmt.Sprintf("%s in %s", plural(len(regs), "regression"), plural(f.Checks, "check"))
			if len(regs) == 1 {
				msg = lines[0]
			}
			c.Failure = &render.JUnitFailure{Message: msg, Type: "regression", Text: strings.Join(lines, "\n") + "\n"}
		}
		s.AddCase(c)
	}
	return render.MarshalJUnit("compacteval gate", s)
}

// familyClass is the classname of a family's testcase.
func familyClass(f Family) string {
	switch {
	case f.Extractor != "":
		return f.Extractor
	case slices.Contains(evalFamilies, f.Name):
		return "eval"
	}
	return "run"
}

// evalFamilies are the families of the eval checks.
var evalFamilies = []string{famScore, famCoverage, famBoundary, famTailLeakage, famCaseCoverage, famCaseBoundary}
