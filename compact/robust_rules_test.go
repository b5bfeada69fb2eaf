package compact

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// ruleFiles maps each rule of docs/robust.md to the file that implements it.
var ruleFiles = map[string]string{
	"Tags":             "robust_rule_tags.go",
	"Analysis":         "robust_rule_analysis.go",
	"Echoed templates": "robust_rule_templates.go",
	"Blocks":           "robust_rule_blocks.go",
	"Duplicates":       "robust_rule_duplicates.go",
	"Truncation":       "robust_rule_truncation.go",
	"Fences":           "robust_rule_fences.go",
	"No tags":          "robust_rule_notags.go",
	"Trim":             "robust_rule_trim.go",
}

// TestRobustRulesStated holds each rule of docs/robust.md to the header of the one file that
// implements it: the same words, so that a rule changed in one place and not the other
// fails here. It fails too on a rule with no file, or a file with no rule.
func TestRobustRulesStated(t *testing.T) {
	doc, err := os.ReadFile("../docs/robust.md")
	if err != nil {
		t.Fatal(err)
	}
	// The rules are the list items of the section "The rules", each "- **Name** [functions]: text".
	_, section, _ := strings.Cut(string(doc), "\n## The rules\n")
	section, _, _ = strings.Cut(section, "\n## ")
	item := regexp.MustCompile(`(?s)^\*\*([^*]+)\*\* \[[^\]]*\]: (.*)$`)
	seen := map[string]bool{}
	for _, part := range strings.Split(section, "\n- ")[1:] {
		part, _, _ = strings.Cut(part, "\n\n") // the last item ends the list
		m := item.FindStringSubmatch(part)
		if m == nil {
			t.Errorf("docs/robust.md: a rule not written \"**Name** [functions]: text\": %.60q", part)
			continue
		}
		name, text := m[1], strings.Join(strings.Fields(m[2]), " ")
		file, ok := ruleFiles[name]
		if !ok {
			t.Errorf("docs/robust.md: rule %q has no file in ruleFiles", name)
			continue
		}
		seen[name] = true
		src, err := os.ReadFile(file)
		if err != nil {
			t.Errorf("rule %q: %v", name, err)
			continue
		}
		var head []string
		for _, l := range strings.Split(string(src), "\n")[1:] {
			if l == "//" {
				break // the end of the rule's paragraph
			}
			if c, ok := strings.CutPrefix(l, "// "); ok {
				head = append(head, c)
			} else if len(head) > 0 {
				break
			}
		}
		want := `Rule "` + name + `" of docs/robust.md, as it states it: ` + text
		if got := strings.Join(strings.Fields(strings.Join(head, " ")), " "); got != want {
			t.Errorf("%s:3: its header states rule %q as\n%s\nwhile docs/robust.md states\n%s", file, name, got, want)
		}
	}
	for name, file := range ruleFiles {
		if !seen[name] {
			t.Errorf("%s: rule %q is not among the rules of docs/robust.md", file, name)
		}
	}
}
