package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"image/png"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/internal/render"
	"github.com/compacteval/compacteval/report"
)

// chromiumFlags run Chromium headless without a sandbox (root in a container), a GPU or any
// network of its own; each run gets a fresh profile.
var chromiumFlags = []string{
	"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync",
}

// chromium returns the Chromium binary, or "" when it is not installed.
func chromium() string {
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	return ""
}

// runChromium runs Chromium on the page at u with args and returns its standard output.
func runChromium(t *testing.T, bin, u string, args ...string) []byte {
	t.Helper()
	profile, err := os.MkdirTemp("", "compacteval-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	// Chromium's helpers may still be writing the profile when it exits: removing it is
	// best effort, unlike t.TempDir.
	t.Cleanup(func() { os.RemoveAll(profile) })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append(append(append([]string{}, chromiumFlags...), "--user-data-dir="+profile), append(args, u)...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %s: %v\nstderr:\n%s", strings.Join(args, " "), err, lastChars(stderr.String(), 2000))
	}
	return stdout.Bytes()
}

func lastChars(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}

// regressedReport runs the corpus with two changes a reviewer meets: seed's loose path keeps
// its closing tag (a behaviour change on the cases that take that path), and robust reports
// the block path where it found the loose one (a path change alone).
func regressedReport(t *testing.T) *report.Report {
	t.Helper()
	opt := options(t, corpusDir, 20)
	for i, ex := range opt.Extractors {
		base := ex.Compact()
		switch ex.Name {
		case "seed":
			opt.Extractors[i] = extractor.Builtin(compact.Extractor{Name: base.Name, Source: base.Source, Extract: func(s string) compact.Extraction {
				e := base.Extract(s)
				if e.Path == compact.PathLoose {
					e.Summary += "\n</summary>"
				}
				return e
			}})
		case "robust":
			opt.Extractors[i] = extractor.Builtin(compact.Extractor{Name: base.Name, Source: base.Source, Extract: func(s string) compact.Extraction {
				e := base.Extract(s)
				if e.Path == compact.PathLoose {
					e.Path = compact.PathBlock
				}
				return e
			}})
		}
	}
	r, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatalf("Run() error: %v", err)
	}
	return r
}

// measureScript, added to a copy of the page, writes what the layout came to into a pre at
// the end of the body: the document's widths, what sticks out of the viewport outside a box
// that scrolls, the smallest text of each chart in CSS pixels (its font size times the
// chart's scale), and the narrowest case name.
const measureScript = `<script>
(function () {
  document.currentScript.remove();
  var de = document.documentElement, vw = de.clientWidth;
  var out = {scrollWidth: de.scrollWidth, clientWidth: vw, outside: [], charts: {}, narrowestCase: 1e9, caseNames: 0};
  function scrolls(el) {
    for (var p = el.parentElement; p; p = p.parentElement) {
      var o = getComputedStyle(p).overflowX;
      if (o === "auto" || o === "scroll" || o === "hidden") return true;
    }
    return false;
  }
  var all = document.body.getElementsByTagName("*");
  for (var i = 0; i < all.length && out.outside.length < 20; i++) {
    var r = all[i].getBoundingClientRect();
    if (r.width > 0 && r.right > vw + 0.5 && !scrolls(all[i])) out.outside.push(all[i].tagName.toLowerCase() + "." + all[i].getAttribute("class") + " right " + Math.round(r.right));
  }
  var svgs = document.getElementsByTagName("svg");
  for (var i = 0; i < svgs.length; i++) {
    var s = svgs[i], scale = s.getBoundingClientRect().width / s.viewBox.baseVal.width, min = 1e9;
    var ts = s.getElementsByTagName("text");
    for (var j = 0; j < ts.length; j++) min = Math.min(min, parseFloat(getComputedStyle(ts[j]).fontSize) * scale);
    out.charts[s.getAttribute("aria-labelledby").split(" ")[0]] = Math.round(min * 10) / 10;
  }
  var names = document.querySelectorAll("td.case, .case-id");
  for (var i = 0; i < names.length; i++) {
    out.caseNames++;
    out.narrowestCase = Math.min(out.narrowestCase, Math.round(names[i].getBoundingClientRect().width));
  }
  var pre = document.createElement("pre");
  pre.id = "measure";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>
`

// layout is what measureScript found.
type layout struct {
	ScrollWidth   int                `json:"scrollWidth"`
	ClientWidth   int                `json:"clientWidth"`
	Outside       []string           `json:"outside"`
	Charts        map[string]float64 `json:"charts"`
	NarrowestCase int                `json:"narrowestCase"`
	CaseNames     int                `json:"caseNames"`
}

var measured = regexp.MustCompile(`(?s)<pre id="measure">(.*?)</pre>`)

// TestHTMLBrowser opens report.html of a regressed run of the real corpus in headless
// Chromium, 800 and 1,400 px wide: the page it parses must hold every section, chart, case
// and details element the file has; the document must be no wider than the window, with
// wide tables scrolling in their own box; chart text must stay readable and case names
// wider than a few characters; a screenshot must come out at each width.
// COMPACTEVAL_SCREENSHOT_DIR=dir keeps the screenshots as report-800.png and report-1400.png.
func TestHTMLBrowser(t *testing.T) {
	bin := chromium()
	if bin == "" {
		t.Skip("SKIP: chromium not installed; apt-get install chromium to run the browser check")
	}
	if testing.Short() {
		t.Skip("runs Chromium on the report of the whole corpus")
	}
	r := regressedReport(t)
	if len(r.Problems) == 0 {
		t.Fatalf("the regressed run has no problems")
	}
	page, err := render.HTML(r)
	if err != nil {
		t.Fatalf("HTML() error: %v", err)
	}
	src := string(page)
	for _, want := range []string{`<div class="verdict regressed"`, `<article class="row-item"`, `<h3 id="path-only">`, `<span class="badge ref"`} {
		if !strings.Contains(src, want) {
			t.Fatalf("the regressed page lacks %q: the test no longer looks at what it means to", want)
		}
	}
	// One Chromium run a width both measures and photographs the page: the copy with
	// measureScript, which differs from report.html by a pre after the last case (far below
	// the screenshot's 4,000 px).
	dir := t.TempDir()
	mpath := filepath.Join(dir, "measure.html")
	if err := os.WriteFile(mpath, []byte(strings.Replace(src, "</body>", measureScript+"</body>", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	fileURL := func(p string) string { return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String() }

	for _, width := range []int{800, 1400} {
		t.Run(fmt.Sprintf("%dpx", width), func(t *testing.T) {
			shot := filepath.Join(dir, fmt.Sprintf("report-%d.png", width))
			dom := string(runChromium(t, bin, fileURL(mpath), fmt.Sprintf("--window-size=%d,4000", width), "--dump-dom", "--screenshot="+shot))
			m := measured.FindStringSubmatch(dom)
			if m == nil {
				t.Fatalf("the measuring script left no result in the DOM")
			}
			var l layout
			if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &l); err != nil {
				t.Fatalf("the measuring script's result does not parse: %v\n%s", err, m[1])
			}
			t.Logf("%d px: document %d px wide in a %d px viewport; narrowest of %d case names %d px; chart text %v", width, l.ScrollWidth, l.ClientWidth, l.CaseNames, l.NarrowestCase, l.Charts)
			if l.ClientWidth < width-40 || l.ClientWidth > width {
				t.Fatalf("the viewport is %d px wide in a %d px window: Chromium ignored the window size", l.ClientWidth, width)
			}
			if l.ScrollWidth > l.ClientWidth {
				t.Errorf("the document is %d px wide in a %d px viewport", l.ScrollWidth, l.ClientWidth)
			}
			for _, o := range l.Outside {
				t.Errorf("sticks out of the %d px viewport: %s", l.ClientWidth, o)
			}
			if want := 2 + len(r.Drift.Extractors); len(l.Charts) != want {
				t.Errorf("measured %d charts, want %d", len(l.Charts), want)
			}
			for id, px := range l.Charts {
				if px < 9.5 {
					t.Errorf("chart %s: its smallest text is %.1f px, want at least 9.5", id, px)
				}
			}
			if l.CaseNames == 0 || l.NarrowestCase < 150 {
				t.Errorf("the narrowest of %d case names is %d px wide, want at least 150", l.CaseNames, l.NarrowestCase)
			}

			// The parser would move or close elements that the file nests wrongly, and would
			// make elements of text that is not escaped: the counts would differ. A
			// "</details>" left unescaped in a response would end it early, and its end would
			// no longer be followed by the end of its case.
			dom = measured.ReplaceAllString(dom, "")
			for _, id := range []string{"regressions", "categories", "drift", "charts", "eval", "cases"} {
				if !strings.Contains(dom, `<section id="`+id+`">`) {
					t.Errorf("the DOM Chromium parsed lacks section %s", id)
				}
			}
			for _, el := range []string{"<svg", "<article", "<details", "<summary", "<table", "<section", "<pre", "<tr", "<span", "</pre>\n</details>\n</article>"} {
				if got, want := strings.Count(dom, el), strings.Count(src, el); got != want {
					t.Errorf("the DOM holds %q %d times, the file %d times", el, got, want)
				}
			}
			if strings.Contains(strings.ToLower(dom), "<script") {
				t.Errorf("the DOM holds a script element")
			}

			data, err := os.ReadFile(shot)
			if err != nil {
				t.Fatalf("chromium wrote no screenshot: %v", err)
			}
			cfg, err := png.DecodeConfig(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("the screenshot is not a PNG: %v", err)
			}
			if cfg.Width != width || cfg.Height != 4000 {
				t.Errorf("the screenshot is %dx%d, want %dx4000", cfg.Width, cfg.Height, width)
			}
			// A blank page compresses to a few KB; the report's rows and diffs do not.
			if len(data) < width*50 {
				t.Errorf("the screenshot is %d bytes, too small for a rendered report", len(data))
			}
			if keep := os.Getenv("COMPACTEVAL_SCREENSHOT_DIR"); keep != "" {
				dst := filepath.Join(keep, filepath.Base(shot))
				if err := os.WriteFile(dst, data, 0o644); err != nil {
					t.Errorf("keep the screenshot: %v", err)
				} else {
					t.Logf("screenshot: %s", dst)
				}
			}
		})
	}
}
