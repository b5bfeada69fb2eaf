package record

import (
	"os/exec"
	"strings"
	"testing"
)

// modelSDKs are the import path prefixes of model providers' Go SDKs.
var modelSDKs = []string{
	"github.com/anthropics/",
	"github.com/openai/",
	"github.com/sashabaranov/go-openai",
	"google.golang.org/genai",
	"cloud.google.com/go/vertexai",
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime",
}

// TestMainModuleCompilesNoModelSDK: no package of the main module, nor its tests, imports a
// model SDK, directly or not, so that no build of compacteval compiles one (docs/testing.md,
// "The providers without SDKs"). The SDKs are compiled only by internal/record/sdkparity, a
// module of its own, when make sdk-parity records what they send.
func TestMainModuleCompilesNoModelSDK(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("SKIP: go is not on PATH")
	}
	out, err := exec.Command("go", "list", "-deps", "-test", "github.com/compacteval/compacteval/...").Output()
	if err != nil {
		t.Fatalf("go list -deps -test github.com/compacteval/compacteval/...: %v", err)
	}
	pkgs := strings.Fields(string(out))
	if len(pkgs) < 100 {
		t.Fatalf("go list -deps -test listed %d packages; the module has more", len(pkgs))
	}
	for _, p := range pkgs {
		for _, sdk := range modelSDKs {
			if strings.HasPrefix(p, sdk) {
				t.Errorf("the main module compiles %s", p)
			}
		}
	}
}
