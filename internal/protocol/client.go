package protocol

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// EnvReference names the environment variable that holds a shell command speaking the
// protocol, used instead of the bundled reference runner.
const EnvReference = "COMPACT_REFERENCE"

// ErrNoReference is returned by ReferenceCommand when neither COMPACT_REFERENCE is set nor
// Node and ../shared/reference/reference.mjs are present.
var ErrNoReference = errors.New("no reference implementation")

// ReferenceCommand returns the command that runs the reference: $COMPACT_REFERENCE through
// sh -c when it is set, otherwise node with reference.mjs from the shared folder beside the
// module root found by walking up from dir. The error wraps ErrNoReference and says what is
// missing.
func ReferenceCommand(dir string) ([]string, error) {
	if c := strings.TrimSpace(os.Getenv(EnvReference)); c != "" {
		return []string{"sh", "-c", c}, nil
	}
	root, err := moduleRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoReference, err)
	}
	script := filepath.Join(filepath.Dir(root), "shared", "reference", "reference.mjs")
	if _, err := os.Stat(script); err != nil {
		return nil, fmt.Errorf("%w: %s not found (../shared is absent) and %s is not set", ErrNoReference, script, EnvReference)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("%w: node is not on PATH and %s is not set", ErrNoReference, EnvReference)
	}
	return []string{node, script}, nil
}

func moduleRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no go.mod above %s", dir)
		}
	}
}

// Client is one long-lived process that speaks the protocol. Its methods are safe for
// concurrent use; requests are answered in order.
type Client struct {
	mu     sync.Mutex
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	w      *bufio.Writer
	dec    *json.Decoder
	stderr *tailBuffer
}

// Start runs argv and returns a client for it.
func Start(argv []string) (*Client, error) {
	if len(argv) == 0 {
		return nil, errors.New("start reference: empty command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("start reference: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("start reference: %w", err)
	}
	stderr := &tailBuffer{max: 4096}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start reference %s: %w", strings.Join(argv, " "), err)
	}
	dec := json.NewDecoder(bufio.NewReaderSize(stdout, 1<<16))
	return &Client{cmd: cmd, stdin: stdin, w: bufio.NewWriterSize(stdin, 1<<16), dec: dec, stderr: stderr}, nil
}

// Do sends one request and returns its answer.
func (c *Client) Do(req Request) (Response, error) {
	out, err := c.DoAll([]Request{req})
	if err != nil {
		return Response{}, err
	}
	return out[0], nil
}

// DoAll sends every request and returns their answers in order. Requests are written while
// answers are read, so a batch costs one round trip, not one per request.
func (c *Client) DoAll(reqs []Request) ([]Response, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	werr := make(chan error, 1)
	go func() {
		for _, r := range reqs {
			b, err := marshalNoEscape(r)
			if err == nil {
				_, err = c.w.Write(append(b, '\n'))
			}
			if err != nil {
				werr <- err
				return
			}
		}
		werr <- c.w.Flush()
	}()
	out := make([]Response, len(reqs))
	for i := range reqs {
		if err := c.dec.Decode(&out[i]); err != nil {
			c.stdin.Close() // unblock the writer
			<-werr
			return nil, fmt.Errorf("read answer %d of %d: %w%s", i+1, len(reqs), err, c.stderr.context())
		}
	}
	if err := <-werr; err != nil {
		return nil, fmt.Errorf("write request: %w", err)
	}
	return out, nil
}

// Close ends the process and waits for it.
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stdin.Close()
	if err := c.cmd.Wait(); err != nil {
		return fmt.Errorf("reference exited: %w%s", err, c.stderr.context())
	}
	return nil
}

// tailBuffer keeps the last max bytes written to it, for error messages.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) context() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.b) == 0 {
		return ""
	}
	return "; its stderr ends: " + strings.TrimSpace(string(t.b))
}
