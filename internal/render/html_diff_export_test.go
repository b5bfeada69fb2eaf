package render

import (
	"strings"
	"testing"
)

func TestSideBySideTable(t *testing.T) {
	table, dels, adds := SideBySide("keep\nold words\n", "keep\nnew words\nadded\n", "base", "head")
	got := string(table)
	for _, want := range []string{
		`<th colspan="2">base</th><th colspan="2">head</th>`,
		`<tr class="chg">`, `<span class="x">old</span>`, `<span class="x">new</span>`,
		`<tr class="ins"><td class="n nl"></td><td class="l"></td><td class="n nr">3</td><td class="r">added</td></tr>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("SideBySide lacks %q:\n%s", want, got)
		}
	}
	if dels != 1 || adds != 2 {
		t.Errorf("SideBySide counts %d deleted and %d inserted lines, want 1 and 2", dels, adds)
	}
	if table, dels, adds := SideBySide("same", "same", "a", "b"); strings.Contains(string(table), "<tr class=") || dels+adds != 0 {
		t.Errorf("SideBySide of equal texts has rows or counts: %d, %d", dels, adds)
	}
	if got := string(table); !strings.Contains(DiffCSS, "table.diff tr.chg td.l") || !strings.Contains(got, `class="diff"`) {
		t.Errorf("DiffCSS does not style the table SideBySide returns")
	}
	if table, _, _ := SideBySide("<b>", "a & b", "<l>", "r"); strings.Contains(string(table), "<b>") || strings.Contains(string(table), "<l>") {
		t.Errorf("SideBySide does not escape texts and titles: %s", table)
	}
}
