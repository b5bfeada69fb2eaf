//go:build unix

package protocol

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/compacteval/compacteval/internal/testhelp/proctest"
)

// TestClientStopsOnCancel: a process that never answers, and a child it started in its
// process group, are killed when the client's context is cancelled; the request waiting
// for its answer fails with the context's error.
func TestClientStopsOnCancel(t *testing.T) {
	dir := t.TempDir()
	pid, child := filepath.Join(dir, "pid"), filepath.Join(dir, "child")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, err := StartWith(ctx, []string{"sh", "-c", `sleep 1000 & echo $! >"$2"; echo $$ >"$1"; exec sleep 1001`, "sh", pid, child}, StartOptions{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := c.Do(Request{Op: "extract", Text: Str("x")})
		done <- err
	}()
	pids := proctest.ReadPIDs(t, pid, child)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Do(cancelled) error = %v, want context.Canceled", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close() after cancel = %v, want nil", err)
	}
	proctest.WaitGone(t, pids...)
	if _, err := c.Do(Request{Op: "constants"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Do(after cancel) error = %v, want context.Canceled", err)
	}
}
