package compact

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/internal/textgen"
)

// TestScanShortcutsFindTheSame holds the scanner's paths for common cases to its general
// code on what they find, not only on what robust returns from it: the tags (lineTag,
// repeatLineTag, repeatLine, repeatUnit, repeatLineTagCRLF) and the fence lines from
// scan.fencesFrom on (repeatFences), on every family at three sizes and on loops of fence,
// tag and prose lines after a preamble.
// It fails if a repeat is copied one line too far, or a line that only looks like the loop
// is copied.
func TestScanShortcutsFindTheSame(t *testing.T) {
	var texts []string
	for _, size := range []int{300, 3000, 20000} {
		for _, f := range textgen.Families(size) {
			texts = append(texts, f.Text)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	lines := []string{"```\n", "~~~\n", "```go\n", " ```\n", "````\n", "a```\n", "<summary>\n", "\u200b<summary>\n",
		"<summary>x\n", "`<summary>` ", "</summary>\n", "<analysis>\n", "x\n", "\n"}
	for range 2000 {
		var unit strings.Builder
		for k := r.IntN(5) + 1; k > 0; k-- {
			unit.WriteString(lines[r.IntN(len(lines))])
		}
		loop := strings.Repeat(unit.String(), r.IntN(60))
		texts = append(texts, lines[r.IntN(len(lines))]+loop+lines[r.IntN(len(lines))])
	}
	// Loops of tag lines with other lines between their tags (repeatUnit), at every line end
	// (repeatLineTagCRLF), whose last repeat is cut or changed at a random byte: where a
	// shortcut trusts one byte past the run, it copies a tag that is not there.
	tagLines := []string{"<summary>", "</summary>", "<analysis>", "</analysis>", "<think>", "</think>", "<details>",
		"```", "~~~", "I check the plan.", "<summary>x", "`<summary>`", " <summary>", "</summary> </analysis>", ""}
	for range 20000 {
		eol := [...]string{"\n", "\n", "\r\n", "\r"}[r.IntN(4)]
		var unit strings.Builder
		for k := r.IntN(4) + 1; k > 0; k-- {
			unit.WriteString(tagLines[r.IntN(len(tagLines))] + eol)
		}
		b := []byte(lines[r.IntN(len(lines))] + strings.Repeat(unit.String(), r.IntN(5)+2))
		switch cut := len(b) - 1 - r.IntN(unit.Len()); r.IntN(3) {
		case 0:
			b = b[:cut]
		case 1:
			b[cut] = "x \n\r<>/"[r.IntN(7)]
		}
		texts = append(texts, string(b)+lines[r.IntN(len(lines))])
	}
	for i, text := range texts {
		fast, general := newScan(text, true), newScan(text, false)
		if got, want := fmt.Sprint(fast.tags, fast.inlineOpeners), fmt.Sprint(general.tags, general.inlineOpeners); got != want {
			t.Fatalf("case %d: newScan(%q) tags = %s, the general code finds %s", i, clipBody(text), got, want)
		}
		var want []fenceLine // the general code collects from the start of the text
		for _, f := range general.fences {
			if int(f.start) >= fast.fencesFrom() {
				want = append(want, f)
			}
		}
		if got, want := fmt.Sprint(fast.fences), fmt.Sprint(want); got != want {
			t.Fatalf("case %d: newScan(%q) fences = %s, the general code finds %s", i, clipBody(text), got, want)
		}
	}
}
