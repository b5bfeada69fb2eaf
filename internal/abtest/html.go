package abtest

import (
	"bytes"
	"html/template"
)

var page = template.Must(template.New("ab").Funcs(template.FuncMap{
	"signed":  signed,
	"ptr":     ptr,
	"value":   value,
	"cost":    cost,
	"cell":    measureCell,
	"weight":  weight,
	"held":    held,
	"measure": measureName,
	"others":  otherMoves,
	"diff":    func(a, b string) []Hunk { return WordDiff(a, b, 2) },
	"kind": func(l DiffLine) string {
		return map[byte]string{' ': "same", '-': "del", '+': "ins", '!': "chg"}[l.Kind]
	},
	"side": func(name string, s SampleResult) any {
		return struct {
			Name string
			S    SampleResult
		}{name, s}
	},
	"changes": func(in InputResult) [][]FactChange {
		g, l := in.FactChanges()
		return [][]FactChange{l, g}
	},
	"pairs": func(in InputResult) [][2]SampleResult {
		out := make([][2]SampleResult, min(len(in.Base), len(in.Head)))
		for i := range out {
			out[i] = [2]SampleResult{in.Base[i], in.Head[i]}
		}
		return out
	},
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Prompt A/B review</title>
<style>
body{font-family:system-ui,sans-serif;margin:2em;max-width:90em}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .6em;vertical-align:top}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:1em}
.pair h4{margin:.2em 0}
pre{white-space:pre-wrap;background:#f6f6f6;padding:.5em;font-size:.85em}
del{background:#fdd;text-decoration:line-through}ins{background:#dfd;text-decoration:none}
.diff .del{background:#fee}.diff .ins{background:#efe}
.fail,.note{color:#a00}
#changed-only:checked ~ table tr.same{display:none}
</style></head><body>
<h1>Prompt A/B review: {{.Headline}}</h1>
<p>{{len .Inputs}} inputs × {{.Samples}} samples per side, {{.Provider}} model {{.Model}}.{{with .Unscorable}} {{len .}} more not scored (listed below).{{end}}{{with .Verdict.Detectable}} The smallest difference this run would detect is {{ptr .}}.{{end}}</p>
<ul>{{range .Sides}}<li>{{.Name}}: {{.Info.Desc}}{{with .FallbackNote}}<br><strong class="note">{{.}}</strong>{{end}}</li>{{end}}</ul>
{{with .Failures}}<p class="fail"><strong>The review fails:</strong></p><ul class="fail">{{range .}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{with .Notes}}<p><strong>How the summaries were read:</strong></p><ul>{{range .}}<li>{{.}}</li>{{end}}</ul>{{end}}
<h2>Measures</h2>
<table><tr><th>measure</th><th>base</th><th>head</th><th>head − base</th><th>95% interval</th><th>detectable</th><th>inputs</th><th>verdict</th></tr>
{{range .Measures}}<tr><td>{{.Measure}}</td><td>{{ptr .Base}}</td><td>{{ptr .Head}}</td><td>{{signed .Mean}}</td><td>{{signed .Low}} to {{signed .High}}</td><td>{{ptr .Detectable}}</td><td>{{.N}}</td><td>{{.Verdict.Verdict}}</td></tr>
{{end}}</table>
<p>Tail leakage and summaries lost are better lower. A lost summary scores 0.</p>
<h2>Inputs: {{.Up}} up, {{.Down}} down, {{.Same}} unchanged</h2>
<p>The headline score of each input went up, down or stayed, head against base. Each cell is head − base (base → head), means over samples.</p>
<input type="checkbox" id="changed-only"><label for="changed-only"> changed only</label>
<table><tr><th>input</th><th>samples (base, head)</th>{{range $.MeasureNames}}<th>{{measure .}}</th>{{end}}</tr>
{{range .Inputs}}{{$in := .}}<tr class="{{if .Changed}}changed{{else}}same{{end}}"><td><code>{{.ID}}</code></td><td>{{len .Base}}, {{len .Head}}</td>{{range $.MeasureNames}}<td>{{cell $in .}}</td>{{end}}</tr>
{{end}}</table>
{{with .Moved}}<h2>Why each input moved</h2>
<p>Every input that changed on a measure, the largest moves of the headline score first. Facts a side's summaries hold in more of its samples than the other's: of the whole conversation before the cut (coverage), and of the messages just before it that the summary's recent part holds (boundary). Weights are eval's: a fact said in fewer messages weighs more.</p>
{{range .}}{{$in := .}}<h3 id="{{.ID}}"><code>{{.ID}}</code>: score {{cell . "score"}}</h3>
{{$ch := changes .}}{{if and (not (index $ch 0)) (not (index $ch 1))}}<p>No fact is held more often by either side: the score moved with {{others .}}.</p>{{end}}
{{range $i, $list := $ch}}{{with $list}}<p>{{if eq $i 0}}Lost (base holds them more often){{else}}Gained (head holds them more often){{end}}:</p>
<table><tr><th>measure</th><th>kind</th><th>fact</th><th>weight</th><th>base</th><th>head</th></tr>
{{range .}}<tr><td>{{measure .Measure}}</td><td>{{.Kind}}</td><td><code>{{.Text}}</code></td><td>{{weight .Weight}}</td><td>{{held .Base (len $in.Base)}}</td><td>{{held .Head (len $in.Head)}}</td></tr>
{{end}}</table>{{end}}{{end}}
{{range $n, $p := pairs .}}{{$b := index $p 0}}{{$h := index $p 1}}{{if and $b.Found $h.Found (ne $b.Summary $h.Summary)}}<details{{if eq $n 0}} open{{end}}><summary>Word diff, base sample {{$b.Sample}} → head sample {{$h.Sample}}</summary>
<pre class="diff">{{range diff $b.Summary $h.Summary}}{{if .Skipped}}<span class="skip">@@ {{.Skipped}} unchanged lines @@</span>
{{end}}{{range .Lines}}<span class="{{kind .}}">{{range .Runs}}{{if eq .Op "-"}}<del>{{.Text}}</del>{{else if eq .Op "+"}}<ins>{{.Text}}</ins>{{else}}{{.Text}}{{end}}{{end}}</span>
{{end}}{{end}}</pre></details>{{end}}
<details{{if eq $n 0}} open{{end}}><summary>Summaries, sample {{$b.Sample}}</summary>
<div class="pair">
{{template "side" (side "base" $b)}}
{{template "side" (side "head" $h)}}
</div></details>
{{end}}{{end}}{{else}}<p>No input's headline score moved.</p>{{end}}
{{with .Unscorable}}<h2>Inputs not scored</h2><ul>{{range .}}<li><code>{{.Input}}</code>: {{.Reason}}</li>{{end}}</ul>{{end}}
<h2>Summaries lost</h2>
{{with .Lost}}<ul>{{range .}}<li>{{.Side}}: <code>{{.Input}}</code>, sample {{.Sample}} ({{.Case}})</li>{{end}}</ul>{{else}}<p>None.</p>{{end}}
<h2>Tokens and recorded cost</h2>
<table><tr><th>side</th><th>answers</th><th>tokens in</th><th>tokens out</th><th>recorded cost</th></tr>
{{range .Sides}}<tr><td>{{.Name}}</td><td>{{.Info.Calls}}</td><td>{{.Info.TokensIn}}</td><td>{{.Info.TokensOut}}</td><td>{{cost .Info.Cost}}</td></tr>
{{end}}</table>
<p>What every answer read cost when it was recorded, replayed ones included; what this run spent is on stderr and in the JSON (<code>spent</code>).</p>
</body></html>
{{define "side"}}<div><h4>{{.Name}}, sample {{.S.Sample}}: score {{value .S.Values "score"}}, missed {{len .S.Missed}} facts{{if .S.Fallback}} (found by the extractor's fallback){{end}}</h4>
{{if .S.Found}}<pre>{{.S.Summary}}</pre>{{else}}<p>No summary found in the answer.</p>{{end}}</div>{{end}}
`))

type htmlSide struct {
	Name string
	Info SideInfo
}

// FallbackNote is SideInfo's note, for the template.
func (s htmlSide) FallbackNote() string { return s.Info.fallbackNote() }

type htmlView struct {
	*Result
	Up, Down, Same int
	Moved          []InputResult
	Sides          []htmlSide
	MeasureNames   []string
}

// HTML returns the result as a self-contained page: everything the Markdown says, for
// every input (a "changed only" switch on the table of inputs), every moved input's facts
// gained and lost in full, and the summaries of each sample side by side, base's column
// then head's, with their word diff.
func HTML(r *Result) ([]byte, error) {
	v := htmlView{Result: r, Moved: r.Moved(-1), MeasureNames: Measures}
	v.Up, v.Down, v.Same = r.Counts()
	for _, s := range r.sides() {
		v.Sides = append(v.Sides, htmlSide{s.name, s.info})
	}
	var b bytes.Buffer
	err := page.Execute(&b, v)
	return b.Bytes(), err
}
