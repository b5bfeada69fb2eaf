package report

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Selection is the part of a corpus a run ran on, chosen as go test -run chooses tests: a
// case is selected when it matches every criterion given.
type Selection struct {
	// Run is a regular expression matched against case ids (unanchored, as go test -run).
	Run string `json:"run,omitempty"`
	// Categories selects the cases in any of these categories.
	Categories []string `json:"categories,omitempty"`
	// Failed is the report whose failed cases (FailedIDs) were selected (-failed).
	Failed    string   `json:"failed,omitempty"`
	FailedIDs []string `json:"failed_ids,omitempty"`
	// Cases counts the cases selected, Of the cases of the corpus.
	Cases int `json:"cases"`
	Of    int `json:"of"`
}

// Matcher returns the function that reports whether a case is selected, or an error for a
// Run that does not compile.
func (s *Selection) Matcher() (func(id string, categories []string) bool, error) {
	var re *regexp.Regexp
	if s.Run != "" {
		var err error
		if re, err = regexp.Compile(s.Run); err != nil {
			return nil, fmt.Errorf("bad -run pattern: %w", err)
		}
	}
	failed := map[string]bool{}
	for _, id := range s.FailedIDs {
		failed[id] = true
	}
	return func(id string, categories []string) bool {
		if re != nil && !re.MatchString(id) {
			return false
		}
		if len(s.Categories) > 0 && !slices.ContainsFunc(categories, func(c string) bool { return slices.Contains(s.Categories, c) }) {
			return false
		}
		if s.Failed != "" && !failed[id] {
			return false
		}
		return true
	}, nil
}

// Empty reports whether s selects by nothing (every case).
func (s *Selection) Empty() bool {
	return s == nil || s.Run == "" && len(s.Categories) == 0 && s.Failed == ""
}

// Same reports whether a and b select by the same criteria (nil is every case).
func (s *Selection) Same(o *Selection) bool {
	if s.Empty() || o.Empty() {
		return s.Empty() == o.Empty()
	}
	return s.Run == o.Run && slices.Equal(s.Categories, o.Categories) && slices.Equal(s.FailedIDs, o.FailedIDs)
}

// String describes the selection for people: "12 of 215 cases (-run ^well-formed/ -category
// fenced)".
func (s *Selection) String() string {
	return fmt.Sprintf("%d of %d cases (%s)", s.Cases, s.Of, s.Criteria())
}

// Criteria are the flags that made the selection: "-run ^well-formed/ -category fenced".
func (s *Selection) Criteria() string {
	var by []string
	if s.Run != "" {
		by = append(by, "-run "+s.Run)
	}
	if len(s.Categories) > 0 {
		by = append(by, "-category "+strings.Join(s.Categories, ","))
	}
	if s.Failed != "" {
		by = append(by, "-failed "+s.Failed)
	}
	return strings.Join(by, " ")
}

// FailedCases returns the ids of the cases that failed in r, sorted: those with a problem
// (a golden mismatch, an unlisted or stale deviation) and those where an external
// extractor (a user's, which has no known_deviations) missed the intended result. Of a
// report whose Stored fails, it reads the cases up to the failure.
func FailedCases(r *Report) []string {
	ids := map[string]bool{}
	known := map[string]bool{}
	external := map[string]bool{}
	for _, e := range r.Extractors {
		external[e.Name] = e.External
	}
	for c, err := range r.AllCases() {
		if err != nil { // a Stored that fails: the cases read up to it
			break
		}
		known[c.ID] = true
		for _, res := range c.Results {
			if external[res.Extractor] && !res.MatchesIntended {
				ids[c.ID] = true
			}
		}
	}
	for _, p := range r.Problems {
		if known[p.Case] { // a load error names a file, not a case
			ids[p.Case] = true
		}
	}
	out := make([]string, 0, len(ids))
	for id := range ids {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}
