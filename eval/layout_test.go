package eval

import (
	"strings"
	"testing"
)

// Each format's own place for recent work: the lines read for boundary coverage, and the
// format reported. Written in the shape of each agent's prompt, in our own words.
func TestLayoutFormats(t *testing.T) {
	for _, tc := range []struct {
		name, summary, format string
		recent                []string // lines in the recent part, trimmed, blank ones left out
		analysis              bool
	}{
		{
			name: "claude code full",
			summary: "1. Primary Request and Intent:\n   fix the exporter\n3. Files and Code Sections:\n   - jobs/export.py\n" +
				"7. Pending Tasks:\n   - docs\n8. Current Work:\n   editing jobs/export.py\n9. Optional Next Step:\n   run the tests",
			format: FormatClaudeFull,
			recent: []string{"3. Files and Code Sections:", "- jobs/export.py", "8. Current Work:", "editing jobs/export.py", "9. Optional Next Step:", "run the tests"},
		},
		{
			name: "claude code partial",
			summary: "1. Primary Request and Intent:\n   fix the exporter\n3. Files and Code Sections:\n   - jobs/export.py\n" +
				"8. Work Completed:\n   streamed the rows\n9. Context for Continuing Work:\n   the test still fails",
			format: FormatClaudePartial,
			recent: []string{"3. Files and Code Sections:", "- jobs/export.py", "8. Work Completed:", "streamed the rows", "9. Context for Continuing Work:", "the test still fails"},
		},
		{
			name: "claude code stored",
			summary: "Analysis:\n1. Current Work: the user first asked about jobs/old.py\n8. Current Work: more thinking\n\n" +
				"Summary:\n1. Primary Request and Intent:\n   fix the exporter\n8. Current Work:\n   editing jobs/export.py",
			format:   FormatClaudeStored,
			recent:   []string{"Summary:", "8. Current Work:", "editing jobs/export.py"},
			analysis: true,
		},
		{
			name: "pi",
			summary: "## Goal\nfix the exporter\n\n## Constraints & Preferences\n- never touch prod\n\n## Progress\n### Done\n- [x] streamed rows\n" +
				"### In Progress\n- [ ] sorting test\n### Blocked\n- CI quota\n\n## Key Decisions\n- **yield_per**: memory\n\n" +
				"## Next Steps\n1. rerun tests\n\n## Critical Context\n- the DSN is in .env",
			format: FormatPiSummary,
			recent: []string{"### In Progress", "- [ ] sorting test", "### Blocked", "- CI quota", "## Next Steps", "1. rerun tests", "## Critical Context", "- the DSN is in .env"},
		},
		{
			name: "gemini cli",
			summary: "<state_snapshot>\n    <overall_goal>\n        fix the exporter\n    </overall_goal>\n    <key_knowledge>\n        - uses SQLAlchemy\n    </key_knowledge>\n" +
				"    <recent_actions>\n        - edited jobs/export.py\n    </recent_actions>\n    <current_plan>\n        1. [TODO] rerun tests\n    </current_plan>\n</state_snapshot>",
			format: FormatGemini,
			recent: []string{"<state_snapshot>", "<recent_actions>", "- edited jobs/export.py", "<current_plan>", "1. [TODO] rerun tests", "</state_snapshot>"},
		},
		{
			name:    "free-form markdown",
			summary: "# Checkpoint\n## Goal\nfix it\n## Current Task: sorting\n### Plan\nadd order_by\n## Notes\nmisc",
			format:  FormatMarkdown,
			recent:  []string{"# Checkpoint", "## Current Task: sorting", "### Plan", "add order_by", "## Notes", "misc"},
		},
		{
			name:    "unstructured",
			summary: "Fixed the exporter.\nNext: rerun the tests.",
			format:  FormatUnstructured,
			recent:  []string{"Fixed the exporter.", "Next: rerun the tests."},
		},
		{
			name:    "a heading in a fence",
			summary: "8. Current Work:\n```python\n# 1. Primary Request\nx = 1\n```\nstill current",
			format:  FormatMarkdown,
			recent:  []string{"8. Current Work:", "```python", "# 1. Primary Request", "x = 1", "```", "still current"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lay := parseLayout(tc.summary)
			if lay.format != tc.format {
				t.Errorf("format = %q, want %q", lay.format, tc.format)
			}
			var got []string
			for _, l := range strings.Split(lay.text(recentLine), "\n") {
				if l = strings.TrimSpace(l); l != "" {
					got = append(got, l)
				}
			}
			if strings.Join(got, "|") != strings.Join(tc.recent, "|") {
				t.Errorf("recent part =\n%q\nwant\n%q", got, tc.recent)
			}
			if a := strings.TrimSpace(lay.text(func(l sline) bool { return !scored(l) })) != ""; a != tc.analysis {
				t.Errorf("analysis part present = %v, want %v", a, tc.analysis)
			}
		})
	}
}

func TestScoreStoredFormReportsAnalysis(t *testing.T) {
	// The older Claude Code form keeps Analysis: before Summary:; only what follows counts,
	// the analysis is scored on its own.
	s := "Analysis:\nThe user wants the DATABASE_URL kept secret; run_export and yield_per matter.\n\nSummary:\n1. Primary Request and Intent:\n   The nightly export times out."
	r := Score(scoreInput(s), Options{})
	if r.Format != FormatClaudeStored || r.Analysis == nil || r.Analysis.Coverage.Hit == 0 {
		t.Fatalf("format %q, analysis %+v; want %q and the analysis' own coverage", r.Format, r.Analysis, FormatClaudeStored)
	}
	for _, f := range r.Missed {
		if f.Kind == KindIdentifier && f.key == "run_export" {
			return // the analysis holds it; the summary proper does not
		}
	}
	t.Errorf("run_export, said only in the analysis, is not among the missed facts: %v", factKeys(r.Missed))
}
