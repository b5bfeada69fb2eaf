package abtest

import (
	"bytes"
	"html/template"
)

var page = template.Must(template.New("ab").Funcs(template.FuncMap{
	"signed": signed,
	"ptr":    ptr,
	"value":  value,
	"first":  func(fs []string) []string { return fs[:min(len(fs), factsShown)] },
	"more":   func(fs []string) int { return max(len(fs)-factsShown, 0) },
	"det": func(d *float64) string {
		if d == nil {
			return "-"
		}
		return ptr(d)
	},
	"cost": func(c *float64) string {
		if c == nil {
			return "unknown (-price)"
		}
		return "$" + template.HTMLEscapeString(ptr(c))
	},
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Prompt A/B review</title>
<style>
body{font-family:system-ui,sans-serif;margin:2em;max-width:90em}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .6em;vertical-align:top}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:1em}
pre{white-space:pre-wrap;background:#f6f6f6;padding:.5em;font-size:.85em}
.fail{color:#a00}
</style></head><body>
<h1>Prompt A/B review: {{.R.Headline}}</h1>
<p>{{len .R.Inputs}} inputs × {{.R.Samples}} samples per side, {{.R.Provider}} model {{.R.Model}}.{{with .R.Verdict.Detectable}} The smallest difference this run would detect is {{ptr .}}.{{end}}</p>
<p>base: {{.R.Base.Desc}}<br>head: {{.R.Head.Desc}}</p>
{{with .R.Failures}}<p class="fail"><strong>The review fails:</strong></p><ul class="fail">{{range .}}<li>{{.}}</li>{{end}}</ul>{{end}}
<h2>Inputs that moved most</h2>
{{range .Moved}}<h3>{{.ID}}: {{signed (index .Delta "score")}}</h3>
<div class="pair">
{{template "side" (index .Base 0)}}
{{template "side" (index .Head 0)}}
</div>
{{else}}<p>No input's headline score moved.</p>{{end}}
<h2>Measures</h2>
<table><tr><th>measure</th><th>base</th><th>head</th><th>head − base</th><th>95% interval</th><th>detectable</th><th>inputs</th><th>verdict</th></tr>
{{range .R.Measures}}<tr><td>{{.Measure}}</td><td>{{ptr .Base}}</td><td>{{ptr .Head}}</td><td>{{signed .Mean}}</td><td>{{signed .Low}} to {{signed .High}}</td><td>{{det .Detectable}}</td><td>{{.N}}</td><td>{{.Verdict.Verdict}}</td></tr>
{{end}}</table>
<p>Tail leakage and summaries lost are better lower. A lost summary scores 0.</p>
<h2>Summaries lost</h2>
{{with .R.Lost}}<ul>{{range .}}<li>{{.Side}}: {{.Input}}, sample {{.Sample}} ({{.Case}})</li>{{end}}</ul>{{else}}<p>None.</p>{{end}}
<h2>Tokens and cost</h2>
<table><tr><th>side</th><th>answers</th><th>tokens in</th><th>tokens out</th><th>cost</th></tr>
<tr><td>base</td><td>{{.R.Base.Calls}}</td><td>{{.R.Base.TokensIn}}</td><td>{{.R.Base.TokensOut}}</td><td>{{cost .R.Base.Cost}}</td></tr>
<tr><td>head</td><td>{{.R.Head.Calls}}</td><td>{{.R.Head.TokensIn}}</td><td>{{.R.Head.TokensOut}}</td><td>{{cost .R.Head.Cost}}</td></tr>
</table>
</body></html>
{{define "side"}}<div><p>sample {{.Sample}}: score {{value .Values "score"}}, missed {{len .Missed}} facts</p>
{{if .Found}}<pre>{{.Summary}}</pre>{{else}}<p>No summary found in the answer.</p>{{end}}
{{with .Missed}}<p>Missed: {{range first .}}<code>{{.}}</code> {{end}}{{with more .}}and {{.}} more{{end}}</p>{{end}}</div>{{end}}
`))

// HTML returns the result as a self-contained page, the same content as Markdown with
// base's and head's summaries side by side.
func HTML(r *Result) ([]byte, error) {
	var b bytes.Buffer
	err := page.Execute(&b, struct {
		R     *Result
		Moved []InputResult
	}{r, r.Moved(MovedShown)})
	return b.Bytes(), err
}
