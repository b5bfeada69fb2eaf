package render

import (
	"fmt"
	"html/template"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/compacteval/compacteval/internal/textdiff"
	"github.com/sergi/go-diff/diffmatchpatch"
)

const (
	// diffContext is the number of unchanged lines kept around each change.
	diffContext = 3
	// diffRunHead and diffRunTail are the rows kept at the start and the end of a change
	// longer than their sum: the rest is in the response, shown once per case.
	diffRunHead, diffRunTail = 80, 20
	// wordDiffMax is the longest pair of lines compared word by word; longer pairs are
	// marked as changed whole, to keep rendering time bounded.
	wordDiffMax = 8000
)

// diffRow is one row of a side-by-side diff: a line of the left text, of the right text or
// both. Skip rows stand for lines left out and say how many.
type diffRow struct {
	// Kind is eq, chg (a line on each side that differ), del (left only), ins (right only)
	// or skip.
	Kind       string
	LNo, RNo   int // 1-based line numbers, 0 where the side has no line
	L, R       []segment
	LEOL, REOL bool // in a chg row, the line lacks the final line terminator the other has
	Skip       string
}

// segment is a run of a line's text. Chg marks text of a chg row that the other side lacks
// (whole deleted or inserted lines are marked by their row); Sp a
// character that would be invisible (a control or format character, an unusual space, a
// byte that is not UTF-8), shown by its name.
type segment struct {
	Text    string
	Chg, Sp bool
	Title   string
}

// sideBySide returns the rows of a line diff of a and b: unchanged lines are kept only
// diffContext around a change, deleted and inserted lines are paired row by row and the
// pairs compared word by word. It also returns the number of lines deleted and inserted.
// If a == b, it returns nil.
func sideBySide(a, b string) (rows []diffRow, dels, adds int) {
	if a == b {
		return nil, 0, 0
	}
	// blocks alternate between unchanged lines (eq) and changes (del and ins)
	type block struct{ eq, del, ins []string }
	var blocks []block
	for _, d := range lineDiff(a, b) {
		ls := d.lines
		if len(ls) == 0 {
			continue
		}
		if d.op == diffmatchpatch.DiffEqual {
			blocks = append(blocks, block{eq: ls})
			continue
		}
		if len(blocks) == 0 || blocks[len(blocks)-1].eq != nil {
			blocks = append(blocks, block{})
		}
		b := &blocks[len(blocks)-1]
		if d.op == diffmatchpatch.DiffDelete {
			b.del = append(b.del, ls...)
		} else {
			b.ins = append(b.ins, ls...)
		}
	}
	ln, rn := 1, 1
	for i, b := range blocks {
		if b.eq != nil {
			rows = append(rows, equalRows(b.eq, ln, rn, i == 0, i == len(blocks)-1)...)
			ln += len(b.eq)
			rn += len(b.eq)
			continue
		}
		rows = append(rows, changeRows(b.del, b.ins, ln, rn)...)
		ln += len(b.del)
		rn += len(b.ins)
		dels += len(b.del)
		adds += len(b.ins)
	}
	return rows, dels, adds
}

type lineOp struct {
	op    diffmatchpatch.Operation
	lines []string
}

// lineDiff diffs a and b line by line, lines split as splitLines does: go-diff's own line
// mode splits at "\n" only, which leaves a text with other line terminators one long line.
// Each distinct line is one rune of the texts go-diff compares, never a surrogate.
func lineDiff(a, b string) []lineOp {
	index := map[string]rune{}
	var lines []string
	encode := func(text string) []rune {
		var rs []rune
		for _, l := range splitLines(text) {
			r, ok := index[l]
			if !ok {
				r = rune(len(lines) + 1)
				if r >= 0xD800 {
					r += 0x800
				}
				index[l] = r
				lines = append(lines, l)
			}
			rs = append(rs, r)
		}
		return rs
	}
	ra, rb := encode(a), encode(b)
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0
	var ops []lineOp
	for _, d := range dmp.DiffMainRunes(ra, rb, false) {
		op := lineOp{op: d.Type}
		for _, r := range d.Text {
			if r >= 0xE000 {
				r -= 0x800
			}
			op.lines = append(op.lines, lines[r-1])
		}
		ops = append(ops, op)
	}
	return ops
}

// display returns a line without its "\n" (other terminators stay, shown by name) and
// whether it lacks a terminator.
func display(line string) (text string, noEOL bool) {
	if t, ok := strings.CutSuffix(line, "\n"); ok {
		return t, false
	}
	r, _ := utf8.DecodeLastRuneInString(line)
	return line, r != '\r' && r != 0x85 && r != 0x2028 && r != 0x2029
}

// equalRows returns the rows of unchanged lines starting at line numbers ln and rn, with
// only diffContext lines kept next to a change: none before the first change (first) and
// none after the last one (last).
func equalRows(eq []string, ln, rn int, first, last bool) []diffRow {
	keepHead, keepTail := diffContext, diffContext
	if first {
		keepHead = 0
	}
	if last {
		keepTail = 0
	}
	row := func(i int) diffRow {
		text, _ := display(eq[i])
		s := segments(text, false)
		return diffRow{Kind: "eq", LNo: ln + i, RNo: rn + i, L: s, R: s}
	}
	var rows []diffRow
	if len(eq) <= keepHead+keepTail+1 {
		for i := range eq {
			rows = append(rows, row(i))
		}
		return rows
	}
	for i := range keepHead {
		rows = append(rows, row(i))
	}
	rows = append(rows, diffRow{Kind: "skip", Skip: fmt.Sprintf("%d unchanged lines", len(eq)-keepHead-keepTail)})
	for i := len(eq) - keepTail; i < len(eq); i++ {
		rows = append(rows, row(i))
	}
	return rows
}

// changeRows pairs deleted and inserted lines row by row, starting at line numbers ln and
// rn; a change of more than diffRunHead+diffRunTail rows keeps only its ends.
func changeRows(del, ins []string, ln, rn int) []diffRow {
	n := max(len(del), len(ins))
	var rows []diffRow
	for i := range n {
		if i == diffRunHead && n > diffRunHead+diffRunTail {
			rows = append(rows, diffRow{Kind: "skip", Skip: fmt.Sprintf("%d changed lines not shown: the whole text is in the response below", n-diffRunHead-diffRunTail)})
		}
		if i >= diffRunHead && i < n-diffRunTail {
			continue
		}
		var row diffRow
		switch {
		case i < len(del) && i < len(ins):
			row = pairRow(del[i], ins[i])
			row.LNo, row.RNo = ln+i, rn+i
		case i < len(del):
			text, _ := display(del[i])
			row = diffRow{Kind: "del", LNo: ln + i, L: segments(text, false)}
		default:
			text, _ := display(ins[i])
			row = diffRow{Kind: "ins", RNo: rn + i, R: segments(text, false)}
		}
		rows = append(rows, row)
	}
	return rows
}

// pairRow compares a deleted line with the inserted line beside it word by word.
func pairRow(l, r string) diffRow {
	lt, lNoEOL := display(l)
	rt, rNoEOL := display(r)
	row := diffRow{Kind: "chg", LEOL: lNoEOL, REOL: rNoEOL}
	if row.LEOL == row.REOL {
		row.LEOL, row.REOL = false, false
	}
	if len(lt)+len(rt) > wordDiffMax {
		row.L, row.R = segments(lt, true), segments(rt, true)
		return row
	}
	for _, d := range textdiff.Words(lt, rt) {
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			s := segments(d.Text, false)
			row.L = append(row.L, s...)
			row.R = append(row.R, s...)
		case diffmatchpatch.DiffDelete:
			row.L = append(row.L, segments(d.Text, true)...)
		case diffmatchpatch.DiffInsert:
			row.R = append(row.R, segments(d.Text, true)...)
		}
	}
	return row
}

// segments splits text into plain runs and invisible characters, each marked chg.
func segments(text string, chg bool) []segment {
	var out []segment
	start := 0
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		name := invisible(r, size, text[i])
		if name == "" {
			i += size
			continue
		}
		if start < i {
			out = append(out, segment{Text: text[start:i], Chg: chg})
		}
		out = append(out, segment{Text: name, Chg: chg, Sp: true, Title: invisibleTitle(r, size, text[i])})
		i += size
		start = i
	}
	if start < len(text) {
		out = append(out, segment{Text: text[start:], Chg: chg})
	}
	return out
}

// invisible returns the name a diff shows for a character that would not be seen, or "".
// Tabs and plain spaces show as themselves.
func invisible(r rune, size int, b byte) string {
	switch {
	case r == utf8.RuneError && size == 1:
		return fmt.Sprintf(`\x%02X`, b)
	case r == '\t' || r == ' ':
		return ""
	case r == '\r':
		return "CR"
	case r == 0x85:
		return "NEL"
	case r == 0xA0:
		return "NBSP"
	case r == 0xFEFF:
		return "BOM"
	case unicode.IsControl(r), unicode.Is(unicode.Cf, r), unicode.Is(unicode.Zs, r),
		unicode.Is(unicode.Zl, r), unicode.Is(unicode.Zp, r):
		return fmt.Sprintf("U+%04X", r)
	}
	return ""
}

func invisibleTitle(r rune, size int, b byte) string {
	if r == utf8.RuneError && size == 1 {
		return fmt.Sprintf("byte 0x%02X, not UTF-8", b)
	}
	return fmt.Sprintf("U+%04X", r)
}

// DiffCSS styles the table SideBySide returns, with the rules report.html uses for its own
// diffs; a page that shows SideBySide tables puts it in its stylesheet once.
const DiffCSS = `.diff-wrap{--line:#d0d7de;--del:#ffe4e1;--delx:#f5a8a0;--ins:#dcf5dc;--insx:#94d494;max-height:640px;overflow:auto;border:1px solid var(--line);border-radius:4px;margin:6px 0}
table.diff{width:100%;table-layout:fixed;margin:0;border-collapse:collapse;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:12px;line-height:1.4}
table.diff col.n{width:3.6em}
table.diff th{position:sticky;top:0;z-index:1;font-family:system-ui,sans-serif;background:#f6f8fa;border:1px solid var(--line);padding:3px 7px;text-align:left}
table.diff td{border:0;border-right:1px solid var(--line);padding:0 6px;white-space:pre-wrap;overflow-wrap:anywhere;word-break:break-word;vertical-align:top}
table.diff td.n{color:#8c959f;text-align:right;user-select:none;padding-right:4px}
table.diff tr.chg td.l,table.diff tr.del td.l{background:var(--del)}
table.diff tr.chg td.r,table.diff tr.ins td.r{background:var(--ins)}
table.diff tr.chg td.nl::after,table.diff tr.del td.nl::after{content:" −"}
table.diff tr.chg td.nr::after,table.diff tr.ins td.nr::after{content:" +"}
table.diff tr.del td.r,table.diff tr.ins td.l{background:repeating-linear-gradient(135deg,#fafbfc,#fafbfc 4px,#eef0f2 4px,#eef0f2 8px)}
table.diff td.l .x{background:var(--delx)}
table.diff td.r .x{background:var(--insx)}
table.diff tr.skip td{background:#eef4fb;color:#424a53;text-align:center;font-family:system-ui,sans-serif;padding:2px}
.sp{border:1px solid #8c959f;border-radius:3px;padding:0 2px;margin:0 1px;font-size:10px;color:#24292f;background:#fff8c5}
.eol{font-size:10px;color:#8a1020;margin-left:6px;font-family:system-ui,sans-serif}
`

// sideBySideTable is the diff table of html.tmpl's case details, headed by two titles.
var sideBySideTable = template.Must(template.New("side-by-side").Parse(`
{{- define "segs"}}{{range .}}{{if .Sp}}<span class="sp{{if .Chg}} x{{end}}" title="{{.Title}}">{{.Text}}</span>{{else if .Chg}}<span class="x">{{.Text}}</span>{{else}}{{.Text}}{{end}}{{end}}{{end -}}
<div class="diff-wrap">
<table class="diff">
<colgroup><col class="n"><col><col class="n"><col></colgroup>
<thead><tr><th colspan="2">{{.Left}}</th><th colspan="2">{{.Right}}</th></tr></thead>
<tbody>
{{- range .Rows}}
{{if eq .Kind "skip"}}<tr class="skip"><td colspan="4">⋯ {{.Skip}} ⋯</td></tr>{{else}}<tr class="{{.Kind}}"><td class="n nl">{{if .LNo}}{{.LNo}}{{end}}</td><td class="l">{{template "segs" .L}}{{if .LEOL}}<span class="eol">no newline at end</span>{{end}}</td><td class="n nr">{{if .RNo}}{{.RNo}}{{end}}</td><td class="r">{{template "segs" .R}}{{if .REOL}}<span class="eol">no newline at end</span>{{end}}</td></tr>{{end}}
{{- end}}
</tbody>
</table>
</div>`))

// SideBySide renders a line diff of a and b as report.html shows intended and actual
// summaries: a table headed left and right (styled by DiffCSS), unchanged lines kept only
// around a change, changed lines paired and their changed words marked, invisible
// characters shown by name. It also returns the number of lines deleted and inserted.
// If a == b, it returns an empty table and 0, 0.
func SideBySide(a, b, left, right string) (table template.HTML, dels, adds int) {
	rows, dels, adds := sideBySide(a, b)
	var buf strings.Builder
	err := sideBySideTable.Execute(&buf, struct {
		Left, Right string
		Rows        []diffRow
	}{left, right, rows})
	if err != nil {
		panic("report: side-by-side template: " + err.Error()) // the data always fits the template
	}
	return template.HTML(buf.String()), dels, adds
}

func splitLines(s string) []string { return textdiff.SplitLines(s) }
