package corpus

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/internal/textdiff"
)

// GoldenPath returns the golden file of case id for an extractor below root
// (corpus/golden): root/<extractor>/<id>.txt.
func GoldenPath(root, extractor, id string) string {
	return filepath.Join(root, extractor, filepath.FromSlash(id)+".txt")
}

const goldenSeparator = "--- summary\n"

// FormatGolden renders an extraction as a golden file: two header lines, then the summary
// byte for byte, so that a change shows as an ordinary line diff.
//
//	ok: true
//	path: line-anchored
//	--- summary
//	1. Primary Request and Intent: ...
func FormatGolden(e compact.Extraction) []byte {
	return fmt.Appendf(nil, "ok: %v\npath: %s\n%s%s", e.OK, e.Path, goldenSeparator, e.Summary)
}

// ParseGolden reads what FormatGolden wrote.
func ParseGolden(data []byte) (compact.Extraction, error) {
	head, summary, ok := bytes.Cut(data, []byte(goldenSeparator))
	if !ok {
		return compact.Extraction{}, fmt.Errorf("no %q line", strings.TrimSpace(goldenSeparator))
	}
	var e compact.Extraction
	var okText, pathText string
	if _, err := fmt.Sscanf(string(head), "ok: %s\npath: %s\n", &okText, &pathText); err != nil {
		return e, fmt.Errorf("header: %w", err)
	}
	switch okText {
	case "true":
		e.OK = true
	case "false":
	default:
		return e, fmt.Errorf("ok: %q is not true or false", okText)
	}
	if err := e.Path.UnmarshalText([]byte(pathText)); err != nil {
		return e, err
	}
	e.Summary = string(summary)
	return e, nil
}

// goldenFields are the parts of an extraction besides its summary text, one a line.
func goldenFields(e compact.Extraction) string {
	return fmt.Sprintf("OK: %t\nPath: %s\n", e.OK, e.Path)
}

// GoldenDiff explains how got differs from the golden want: a line diff of ok and path,
// then a unified line diff of the summary text (-golden +got). It is "" when they agree.
func GoldenDiff(want, got compact.Extraction) string {
	fields := textdiff.Lines(goldenFields(want), goldenFields(got))
	if fields != "" {
		fields = "ok, path:\n" + fields
	}
	summary := textdiff.Unified(want.Summary, got.Summary, 3)
	if summary != "" {
		summary = "summary:\n" + summary
	}
	return fields + summary
}

// Deviation is an extractor's result on a case that differs from the intended one.
type Deviation struct {
	Extractor string
	Got       compact.Extraction
}

// Matches reports whether an extraction gives the intended result.
func (c *Case) Matches(e compact.Extraction) bool {
	if !c.Intended.Found {
		return !e.OK
	}
	return e.OK && e.Summary == c.Intended.Summary
}

// Deviation returns the reason known_deviations gives for the extractor name: the entry
// under name itself, or else the one under its agent without a version (the entry
// "claude-code" covers claude-code@2.1.88 and claude-code@2.1.332 unless they have their
// own); listed is false when there is neither.
func (c *Case) Deviation(name string) (reason string, listed bool) {
	if reason, ok := c.KnownDeviations[name]; ok {
		return reason, true
	}
	if family := compact.Family(name); family != name {
		reason, ok := c.KnownDeviations[family]
		return reason, ok
	}
	return "", false
}

// CheckDeviations runs each extractor on the case and reports, as problems, every deviation
// from intended that known_deviations does not list and every listed one that no longer
// happens.
func CheckDeviations(c *Case, extractors []compact.Extractor) Problems {
	var ps Problems
	for _, ex := range extractors {
		got := ex.Extract(c.Response)
		_, listed := c.Deviation(ex.Name)
		switch deviates := !c.Matches(got); {
		case deviates && !listed:
			ps = append(ps, Problem{File: c.File, Msg: fmt.Sprintf("%s deviates from intended (%s) but known_deviations does not list it: add known_deviations.%s with a one-line reason", ex.Name, describe(got), ex.Name)})
		case !deviates && listed:
			if _, own := c.KnownDeviations[ex.Name]; !own {
				ps = append(ps, Problem{File: c.File, Msg: fmt.Sprintf("known_deviations.%s covers %s, but it returns the intended summary: list by name the versions that deviate", compact.Family(ex.Name), ex.Name)})
				continue
			}
			ps = append(ps, Problem{File: c.File, Msg: fmt.Sprintf("known_deviations lists %s, but it now returns the intended summary: remove the entry", ex.Name)})
		}
	}
	return ps
}

func describe(e compact.Extraction) string {
	if !e.OK {
		return "finds no summary via " + e.Path.String()
	}
	s := e.Summary
	if len(s) > 60 {
		s = s[:60] + "..."
	}
	return fmt.Sprintf("returns %q via %s", s, e.Path)
}
