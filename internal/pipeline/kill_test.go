//go:build unix

package pipeline

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/internal/testhelp/proctest"
)

// TestRunKillsOnCancel: a cmd: extractor that answers its first request (the probe of
// extractor.Open) and then never answers is killed when Run's context is cancelled while
// it holds a request, and Run returns context.Canceled. The extractor is opened with a
// context of its own that is never cancelled: Run kills it, not Open's context. Nothing
// here depends on the machine's speed: the test waits for the process to read the request,
// for Run to return and for the process to be gone.
func TestRunKillsOnCancel(t *testing.T) {
	c, err := corpus.Open(nil)
	if err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	script := `IFS= read -r l; id=${l#'{"id":'}; id=${id%%,*}; printf '{"id":%s,"summary":null}\n' "$id"
IFS= read -r l; echo $$ >` + pidFile + `; exec sleep 1000`
	ex, err := extractor.Open(context.Background(), "cmd:"+script, extractor.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, Options{Corpus: c, Extractors: []*extractor.Extractor{ex}, DriftSeed: 1, DriftN: 1})
		done <- err
	}()
	pid := proctest.ReadPIDs(t, pidFile)[0]
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Run(cancelled while the extractor holds a request) error = %v, want context.Canceled", err)
	}
	proctest.WaitGone(t, pid)
}
