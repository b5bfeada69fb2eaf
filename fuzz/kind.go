package fuzz

import (
	"slices"
	"strings"
)

// A kind names one sort of failure: its property, then after a colon what the text or the
// answer shows of it, from a fixed list (Kinds), so that a kind found today is named the
// same tomorrow and can be accepted in gate.yaml:
//
//	analysis-leak:alone, :before-summary, :after-summary, :between-summaries
//	                      where the leaked closed block stands among "<summary>" lines
//	analysis-leak:marked  a line of a drift sample's analysis, its ends marked by tags
//	bare-tag:NAMES        the tags the summary is made of, "+"-joined (bare-tag:summary,
//	                      bare-tag:example+summary)
//	tag-kept:TAG          the tag line kept (tag-kept:summary, tag-kept:/analysis)
//	summary-lost:closed-block  the text shows a closed summary block
//	summary-lost:intended      the corpus case or drift sample intends a summary
//	nondeterministic
//	superlinear-time:FAMILY    the input family (Families) that grew too slow
//
// The kind does not depend on the input's size or wording, so minimizing keeps it.
const kindSep = ":"

// kindOf returns the kind of property prop with sub ("" for the property alone).
func kindOf(prop, sub string) string {
	if sub == "" {
		return prop
	}
	return prop + kindSep + sub
}

// PropertyOf returns the property of a kind ("tag-kept" for "tag-kept:summary").
func PropertyOf(kind string) string {
	prop, _, _ := strings.Cut(kind, kindSep)
	return prop
}

// tagNameList is the tag names robust knows, sorted, as bare-tag kinds name them.
var tagNameList = []string{"analysis", "example", "summary", "think", "thinking"}

// tagNamesOf returns the distinct tag names of s, lowercased, sorted and "+"-joined.
func tagNamesOf(s string) string {
	var names []string
	for _, m := range anyTag.FindAllStringSubmatch(s, -1) {
		if n := strings.ToLower(m[1]); !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return strings.Join(names, "+")
}

// tagSub returns the kind's name of a structural tag line: "summary", "/summary",
// "analysis" or "/analysis".
func tagSub(line string) string {
	t := strings.ToLower(strings.Trim(line, "<> \t"))
	closer := strings.HasPrefix(t, "/")
	t = strings.TrimSpace(strings.TrimPrefix(t, "/"))
	if closer {
		return "/" + t
	}
	return t
}

// Kinds returns every kind a run can report, in report order.
func Kinds() []string {
	var out []string
	for _, p := range []string{"alone", "before-summary", "after-summary", "between-summaries", "marked"} {
		out = append(out, kindOf(PropLeak, p))
	}
	for mask := 1; mask < 1<<len(tagNameList); mask++ {
		var names []string
		for i, n := range tagNameList {
			if mask&(1<<i) != 0 {
				names = append(names, n)
			}
		}
		out = append(out, kindOf(PropBareTag, strings.Join(names, "+")))
	}
	for _, t := range []string{"summary", "/summary", "analysis", "/analysis"} {
		out = append(out, kindOf(PropTagKept, t))
	}
	out = append(out, kindOf(PropLost, "closed-block"), kindOf(PropLost, "intended"), PropNondeterministic)
	for _, f := range Families {
		out = append(out, kindOf(PropSuperlinear, f.Name))
	}
	return out
}

// Accepts reports whether accepted, a list of kinds and properties (a property accepts
// each of its kinds), holds kind.
func Accepts(accepted []string, kind string) bool {
	return slices.Contains(accepted, kind) || slices.Contains(accepted, PropertyOf(kind))
}

// KnownKind reports whether s is a kind (Kinds) or a property (Properties): what gate.yaml
// may accept.
func KnownKind(s string) bool {
	return slices.Contains(Properties, s) || slices.Contains(Kinds(), s)
}
