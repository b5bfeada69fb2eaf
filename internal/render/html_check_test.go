package render

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// voidElements have no end tag in HTML.
var voidElements = map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true,
	"img": true, "input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true}

// allowedParents lists, for elements whose place HTML restricts, the parents they may have.
var allowedParents = map[string][]string{
	"tr": {"thead", "tbody", "tfoot", "table"}, "td": {"tr"}, "th": {"tr"}, "li": {"ul", "ol"},
	"dt": {"dl"}, "dd": {"dl"}, "summary": {"details"}, "col": {"colgroup"}, "caption": {"table"},
	"thead": {"table"}, "tbody": {"table"}, "colgroup": {"table"}, "figcaption": {"figure"},
}

// blockElements may not sit in a p: the parser would close the p before them.
var blockElements = map[string]bool{"div": true, "p": true, "table": true, "ul": true, "ol": true, "dl": true, "pre": true,
	"details": true, "section": true, "figure": true, "h1": true, "h2": true, "h3": true, "h4": true, "article": true}

var (
	charRef  = regexp.MustCompile(`^&(#[0-9]+|#x[0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);`)
	tagName  = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9-]*`)
	attrName = regexp.MustCompile(`^[^\s"'>/=]+`)
)

// checkHTML fails t unless validHTML accepts page.
func checkHTML(t *testing.T, page []byte) {
	t.Helper()
	if err := validHTML(string(page)); err != nil {
		t.Fatalf("HTML() is not valid: %v", err)
	}
}

// validHTML checks that s is HTML a parser reads as written: a doctype, every element closed
// in order (void elements aside, self-closing only in SVG), quoted attributes without
// repeats, character references well formed, no "<" that starts no tag, tables, lists and
// details nested as HTML requires, unique ids, a target for every "#" link and no link out
// of the page. It does without golang.org/x/net/html, which the module does not require.
func validHTML(s string) error {
	at := func(i int, format string, args ...any) error {
		return fmt.Errorf("byte %d (%q): %s", i, s[max(0, i-60):min(len(s), i+60)], fmt.Sprintf(format, args...))
	}
	if strings.Contains(s, "ZgotmplZ") {
		return at(strings.Index(s, "ZgotmplZ"), "ZgotmplZ, html/template's mark of a value it refused")
	}
	if !strings.HasPrefix(s, "<!DOCTYPE html>\n") {
		return at(0, "no <!DOCTYPE html>")
	}
	refs := func(i int, text string) error {
		for j := strings.IndexByte(text, '&'); j >= 0; j = strings.IndexByte(text, '&') {
			if !charRef.MatchString(text[j:]) {
				return at(i, "a bare & in %q", text)
			}
			text = text[j+1:]
		}
		return nil
	}
	var stack []string
	ids := map[string]bool{}
	var links []string
	i := len("<!DOCTYPE html>")
	for i < len(s) {
		lt := strings.IndexByte(s[i:], '<')
		if lt < 0 {
			lt = len(s) - i
		}
		if err := refs(i, s[i:i+lt]); err != nil {
			return err
		}
		i += lt
		if i == len(s) {
			break
		}
		if strings.HasPrefix(s[i:], "</") {
			name := tagName.FindString(s[i+2:])
			end := i + 2 + len(name)
			if name == "" || end >= len(s) || s[end] != '>' {
				return at(i, "a malformed end tag")
			}
			if len(stack) == 0 || stack[len(stack)-1] != name {
				return at(i, "</%s> closes %v", name, stack)
			}
			stack = stack[:len(stack)-1]
			i = end + 1
			continue
		}
		name := tagName.FindString(s[i+1:])
		if name == "" {
			return at(i, "a < that starts no tag")
		}
		if ps, ok := allowedParents[name]; ok && (len(stack) == 0 || !slices.Contains(ps, stack[len(stack)-1])) {
			return at(i, "<%s> inside %v", name, stack)
		}
		if blockElements[name] && slices.Contains(stack, "p") {
			return at(i, "<%s> inside a p: %v", name, stack)
		}
		j := i + 1 + len(name)
		seen := map[string]bool{}
		selfClosed := false
		for {
			for j < len(s) && (s[j] == ' ' || s[j] == '\n') {
				j++
			}
			if j >= len(s) {
				return at(i, "an unclosed tag")
			}
			if s[j] == '>' {
				j++
				break
			}
			if strings.HasPrefix(s[j:], "/>") {
				selfClosed = true
				j += 2
				break
			}
			an := attrName.FindString(s[j:])
			if an == "" {
				return at(j, "a malformed attribute in <%s>", name)
			}
			if seen[an] {
				return at(j, "attribute %s twice in <%s>", an, name)
			}
			seen[an] = true
			j += len(an)
			if j >= len(s) || s[j] != '=' {
				continue
			}
			if j+1 >= len(s) || s[j+1] != '"' {
				return at(j, "an unquoted value of %s", an)
			}
			end := strings.IndexByte(s[j+2:], '"')
			if end < 0 {
				return at(j, "an unclosed value of %s", an)
			}
			v := s[j+2 : j+2+end]
			if strings.Contains(v, "<") {
				return at(j, "a < in the value of %s", an)
			}
			if err := refs(j, v); err != nil {
				return err
			}
			switch {
			case an == "id" && ids[v]:
				return at(j, "id %q twice", v)
			case an == "id":
				ids[v] = true
			case an == "href" && strings.HasPrefix(v, "#"):
				links = append(links, v[1:])
			case an == "href" || an == "src":
				return at(j, "a link out of the page: %s=%q", an, v)
			}
			j += 2 + end + 1
		}
		i = j
		switch {
		case voidElements[name]:
		case selfClosed:
			if !slices.Contains(stack, "svg") {
				return at(i, "a self-closed <%s/> outside svg", name)
			}
		case name == "style" || name == "script":
			end := strings.Index(s[i:], "</"+name+">")
			if end < 0 {
				return at(i, "an unclosed <%s>", name)
			}
			i += end + len(name) + 3
		default:
			stack = append(stack, name)
		}
	}
	if len(stack) > 0 {
		return fmt.Errorf("%v left open", stack)
	}
	for _, l := range links {
		if !ids[l] {
			return fmt.Errorf("a link to #%s, which no element has as id", l)
		}
	}
	return nil
}

func TestValidHTML(t *testing.T) {
	const head = "<!DOCTYPE html>\n<html><body>"
	const foot = "</body></html>\n"
	tests := []struct {
		name, body string
		ok         bool
	}{
		{name: "a well-formed page", body: `<p class="a">x &amp; y &#34;</p><table><tbody><tr><td>1</td></tr></tbody></table><svg><rect x="1"/></svg><a href="#p">p</a><div id="p"></div>`, ok: true},
		{name: "an unescaped < in text", body: `<p>a <summary> b</p>`},
		{name: "a < that starts no tag", body: `<p>1 < 2</p>`},
		{name: "elements closed out of order", body: `<div><span></div></span>`},
		{name: "an element left open", body: `<div>`},
		{name: "a bare &", body: `<p>a & b</p>`},
		{name: "an unquoted attribute", body: `<p class=a>x</p>`},
		{name: "an attribute twice", body: `<p class="a" class="b">x</p>`},
		{name: "an id twice", body: `<p id="a"></p><p id="a"></p>`},
		{name: "a link to no id", body: `<a href="#nowhere">x</a>`},
		{name: "a link out of the page", body: `<a href="https://example.com/">x</a>`},
		{name: "a block inside a p", body: `<p><div></div></p>`},
		{name: "a cell outside a row", body: `<table><td>x</td></table>`},
		{name: "a summary outside details", body: `<summary>x</summary>`},
		{name: "a self-closed element outside svg", body: `<div/>`},
		{name: "html/template's refusal mark", body: `<p>ZgotmplZ</p>`},
	}
	for _, tt := range tests {
		err := validHTML(head + tt.body + foot)
		if (err == nil) != tt.ok {
			t.Errorf("validHTML(%s) = %v, want ok %v", tt.name, err, tt.ok)
		}
	}
}
