package pipeline

import (
	"bytes"
	"context"
	"image/png"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/compacteval/compacteval/internal/report"
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

// TestHTMLBrowser opens the real corpus's report.html in headless Chromium: the page it
// parses must hold every section, chart, case and details element the file has, and a
// screenshot must come out. COMPACTEVAL_SCREENSHOT=path keeps the screenshot.
func TestHTMLBrowser(t *testing.T) {
	bin := chromium()
	if bin == "" {
		t.Skip("SKIP: chromium not installed; apt-get install chromium to run the browser check")
	}
	if testing.Short() {
		t.Skip("runs Chromium on the report of the whole corpus")
	}
	page, err := report.HTML(corpusReport(t))
	if err != nil {
		t.Fatalf("HTML() error: %v", err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "report.html")
	if err := os.WriteFile(path, page, 0o644); err != nil {
		t.Fatal(err)
	}
	u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()

	dom := string(runChromium(t, bin, u, "--dump-dom"))
	for _, id := range []string{"regressions", "categories", "drift", "charts", "eval", "cases"} {
		if !strings.Contains(dom, `<section id="`+id+`">`) {
			t.Errorf("the DOM Chromium parsed lacks section %s", id)
		}
	}
	// The parser would move or close elements that the file nests wrongly, and would make
	// elements of text that is not escaped: the counts would differ. A "</details>" left
	// unescaped in a response would end it early, and its end would no longer be followed by
	// the end of its case.
	src := string(page)
	for _, el := range []string{"<svg", "<article", "<details", "<summary", "<table", "<section", "<pre", "<tr", "<span", "</pre>\n</details>\n</article>"} {
		if got, want := strings.Count(dom, el), strings.Count(src, el); got != want {
			t.Errorf("the DOM holds %q %d times, the file %d times", el, got, want)
		}
	}
	if got := strings.Count(dom, "<svg"); got != 3 {
		t.Errorf("the DOM holds %d charts, want 3", got)
	}
	if strings.Contains(strings.ToLower(dom), "<script") {
		t.Errorf("the DOM holds a script element")
	}

	shot := filepath.Join(dir, "report.png")
	runChromium(t, bin, u, "--screenshot="+shot, "--window-size=1400,4000")
	data, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("chromium wrote no screenshot: %v", err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	if cfg.Width != 1400 || cfg.Height != 4000 {
		t.Errorf("the screenshot is %dx%d, want 1400x4000", cfg.Width, cfg.Height)
	}
	// A blank 1400x4000 page compresses to a few KB; the report's tables and charts do not.
	if len(data) < 100<<10 {
		t.Errorf("the screenshot is %d bytes, too small for a rendered report", len(data))
	}
	if dst := os.Getenv("COMPACTEVAL_SCREENSHOT"); dst != "" {
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Errorf("keep the screenshot: %v", err)
		} else {
			t.Logf("screenshot: %s", dst)
		}
	}
}
