package render

import (
	"os/exec"
	"strings"
	"testing"
)

// maxDeps is the most packages (the standard library's included) that reading, rendering
// or gating a report.json, scoring, or fuzzing a Go function may compile; the whole tool
// compiles about 410.
const maxDeps = 150

// heavy are the module paths that only running extractors or models needs: the model SDKs,
// esbuild (TypeScript modules) and viper (gitleaks' config, behind internal/redact).
var heavy = []string{
	"github.com/anthropics/anthropic-sdk-go",
	"github.com/openai/openai-go",
	"github.com/evanw/esbuild",
	"github.com/spf13/viper",
	"github.com/zricethezav/gitleaks",
}

// light are the packages that stay pure: the report document and its readers (renderers,
// gate), eval, and the fuzzer with its drift mutators, which take an extractor as a Go
// function and leave running one as a process to internal/extractor.
var light = []string{"report", "internal/render", "internal/gate", "eval", "fuzz", "fuzz/drift"}

// TestReportReadersStayLight: the light packages compile neither the model SDKs nor esbuild
// nor viper, nor os/exec (they start no process), and fewer than maxDeps packages; eval, a
// public package, imports nothing of internal/.
func TestReportReadersStayLight(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("SKIP: go is not on PATH")
	}
	const module = "github.com/compacteval/compacteval/"
	for _, pkg := range light {
		deps := goList(t, "-deps", module+pkg)
		if len(deps) >= maxDeps {
			t.Errorf("go list -deps %s: %d packages, want fewer than %d", pkg, len(deps), maxDeps)
		}
		for _, d := range deps {
			if d == "os/exec" {
				t.Errorf("%s compiles os/exec: it could start a process", pkg)
			}
			for _, h := range heavy {
				if strings.HasPrefix(d, h) {
					t.Errorf("%s compiles %s", pkg, d)
				}
			}
		}
	}
	for _, imp := range goList(t, "-f", "{{join .Imports \"\\n\"}}", module+"eval") {
		if strings.HasPrefix(imp, module+"internal/") {
			t.Errorf("eval imports %s", imp)
		}
	}
}

// goList runs go list with args and returns its lines.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list"}, args...)...).Output()
	if err != nil {
		t.Fatalf("go list %s: %v", strings.Join(args, " "), err)
	}
	return strings.Fields(string(out))
}
