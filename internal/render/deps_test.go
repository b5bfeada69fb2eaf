package render

import (
	"os/exec"
	"strings"
	"testing"
)

// maxDeps is the most packages (the standard library's included) that reading, rendering
// or gating a report.json may compile; the whole tool compiles about 410.
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

// TestReportReadersStayLight: the report document, its renderers and the gate compile
// neither the model SDKs nor esbuild nor viper, and fewer than maxDeps packages; eval, a
// public package, imports nothing of internal/.
func TestReportReadersStayLight(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("SKIP: go is not on PATH")
	}
	const module = "github.com/compacteval/compacteval/"
	for _, pkg := range []string{"report", "internal/render", "internal/gate"} {
		deps := goList(t, "-deps", module+pkg)
		if len(deps) >= maxDeps {
			t.Errorf("go list -deps %s: %d packages, want fewer than %d", pkg, len(deps), maxDeps)
		}
		for _, d := range deps {
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
