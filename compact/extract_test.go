package compact

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestExtract(t *testing.T) {
	for _, tc := range []struct {
		name   string
		in     string
		want   string
		ok     bool
		path   Path
		reason string
	}{
		{
			name: "well-formed", in: "<analysis>\nthink\n</analysis>\n\n<summary>\n1. Request\n</summary>\n",
			want: "1. Request", ok: true, path: PathLineAnchored,
			reason: "tags alone on their lines",
		},
		{
			name: "indented tags", in: "  \t<summary> \t\nbody\n\t </summary>\t ",
			want: "body", ok: true, path: PathLineAnchored,
			reason: "[ \\t]* around both tags",
		},
		{
			name: "crlf opener", in: "<summary>\r\nbody\r\n</summary>\r\n",
			want: "body", ok: true, path: PathLoose,
			reason: "the opener line must end in \\n itself, so CRLF falls to the loose pattern",
		},
		{
			name: "cr before closer", in: "<summary>\nbody\r\n</summary>",
			want: "body", ok: true, path: PathLineAnchored,
			reason: "the closer only needs \\n before it; the \\r stays in the body and is trimmed",
		},
		{
			name: "closer followed by cr", in: "<summary>\nbody\n</summary>\rafter",
			want: "body", ok: true, path: PathLineAnchored,
			reason: "$ holds before \\r in JavaScript, not in Go's (?m)",
		},
		{
			name: "closer followed by LS", in: "<summary>\nbody\n</summary>\u2028after",
			want: "body", ok: true, path: PathLineAnchored,
			reason: "$ holds before U+2028",
		},
		{
			name: "closer followed by NEL", in: "<summary>\nbody\n</summary>\u0085after\n</summary>x",
			want: "body\n</summary>\u0085after", ok: true, path: PathLoose,
			reason: "U+0085 is no line terminator, so no closer line: loose runs to the last closer",
		},
		{
			name: "opener after PS", in: "intro\u2029<summary>\nbody\n</summary>",
			want: "body", ok: true, path: PathLineAnchored,
			reason: "^ holds after U+2029",
		},
		{
			name: "opener after CR", in: "intro\r<summary>\nbody\n</summary>",
			want: "body", ok: true, path: PathLineAnchored,
			reason: "^ holds after a lone \\r",
		},
		{
			name: "greedy to last closer line", in: "<summary>\na\n</summary>\nmiddle\n</summary>\nend",
			want: "a\n</summary>\nmiddle", ok: true, path: PathLineAnchored,
			reason: "[\\s\\S]* is greedy: the body runs to the last closer line",
		},
		{
			name: "first opener line wins", in: "<summary>\nfirst\n<summary>\nsecond\n</summary>",
			want: "first\n<summary>\nsecond", ok: true, path: PathLineAnchored,
			reason: "the leftmost match starts at the first opener line",
		},
		{
			name: "closer line before the only opener line", in: "x\n</summary>\n<summary>\nbody</summary>",
			want: "body", ok: true, path: PathLoose,
			reason: "no closer line after the opener line; loose takes the first <summary> to the last </summary>",
		},
		{
			name: "empty line-anchored block stops the search", in: "<summary>\n\n</summary>\n<summary>real</summary>",
			want: "", ok: false, path: PathLineAnchored,
			reason: "the reference returns undefined as soon as the anchored body trims to nothing",
		},
		{
			name: "opener and closer sharing one newline", in: "<summary>\n</summary>",
			want: "", ok: false, path: PathLoose,
			reason: "the anchored pattern needs two \\n; loose matches with an empty body",
		},
		{
			name: "inline mention in analysis", in: "<analysis>\nI will use <summary> tags\n</analysis>\n<summary>real</summary>",
			want: "real", ok: true, path: PathLoose,
			reason: "closed analysis blocks are removed before the loose search",
		},
		{
			name: "every analysis block removed", in: "<analysis>a</analysis>keep<analysis>b</analysis>",
			want: "keep", ok: true, path: PathWhole,
			reason: "replace with /g removes every block",
		},
		{
			name: "lazy analysis", in: "<analysis>a</analysis>mid</analysis>",
			want: "mid</analysis>", ok: true, path: PathWhole,
			reason: "[\\s\\S]*? stops at the first closer",
		},
		{
			name: "unclosed analysis stays", in: "<analysis>\nthinking about <summary> and more",
			want: "<analysis>\nthinking about <summary> and more", ok: true, path: PathWhole,
			reason: "an opener without a closer is not removed, and no </summary> follows",
		},
		{
			name: "analysis inside summary", in: "<summary>\nA<analysis>x</analysis>B\n</summary>",
			want: "A<analysis>x</analysis>B", ok: true, path: PathLineAnchored,
			reason: "the anchored pattern runs on the raw text, analysis included",
		},
		{
			name: "uppercase tags", in: "<SUMMARY>\nbody\n</SUMMARY>",
			want: "<SUMMARY>\nbody\n</SUMMARY>", ok: true, path: PathWhole,
			reason: "the patterns are case-sensitive",
		},
		{
			name: "bom and nel", in: "\ufeff<summary>\n\u0085body\ufeff\n</summary>",
			want: "\u0085body", ok: true, path: PathLoose,
			reason: "a BOM before the opener breaks ^; trim removes the BOM and keeps NEL",
		},
		{
			name: "empty", in: "", want: "", ok: false, path: PathWhole,
			reason: "nothing at all",
		},
		{
			name: "whitespace only", in: " \n\t\u3000\ufeff", want: "", ok: false, path: PathWhole,
			reason: "the whole text trims to nothing",
		},
		{
			name: "analysis only", in: "<analysis>\nonly thoughts\n</analysis>\n", want: "", ok: false, path: PathWhole,
			reason: "removing the analysis leaves nothing",
		},
		{
			name: "invalid utf-8", in: "<summary>\n\xff\xfe body \xc3\n</summary>",
			want: "\xff\xfe body \xc3", ok: true, path: PathLineAnchored,
			reason: "invalid bytes pass through and are not trimmed",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Extract(tc.in)
			want := Extraction{Summary: tc.want, OK: tc.ok, Path: tc.path}
			if got != want {
				t.Errorf("Extract(%q) = %+v, want %+v (%s)", tc.in, got, want, tc.reason)
			}
			if s, ok := ExtractSummary(tc.in); s != tc.want || ok != tc.ok {
				t.Errorf("ExtractSummary(%q) = %q, %v, want %q, %v", tc.in, s, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestExtractNeverPanicsOnBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	pieces := []string{"<summary>", "</summary>", "<analysis>", "</analysis>", "\n", "\r", "\xe2\x80", "\xe2\x80\xa8", "\xff", "\xc3", " ", "x"}
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for k := r.IntN(12); k > 0; k-- {
			if r.IntN(3) == 0 {
				b.WriteByte(byte(r.Uint32()))
			} else {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
		}
		in := b.String()
		e := Extract(in)
		from := in
		if e.Path != PathLineAnchored {
			from = RemoveAnalysisBlocks(in)
		}
		if e.OK && !strings.Contains(from, e.Summary) {
			t.Fatalf("Extract(%q).Summary = %q is not part of the text it was taken from", in, e.Summary)
		}
	}
}

func TestPathText(t *testing.T) {
	for _, p := range []Path{PathNone, PathLineAnchored, PathLoose, PathWhole} {
		b, _ := p.MarshalText()
		var q Path
		if err := q.UnmarshalText(b); err != nil || q != p {
			t.Errorf("Path %d: MarshalText = %q, UnmarshalText gives %d, %v", p, b, q, err)
		}
	}
	var q Path
	if err := q.UnmarshalText([]byte("sideways")); err == nil {
		t.Errorf("UnmarshalText(sideways) = nil error, want one")
	}
}
