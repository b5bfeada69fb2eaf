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
	"sync/atomic"
	"syscall"
	"time"
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
	mu      sync.Mutex
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	w       *bufio.Writer
	dec     *json.Decoder
	stderr  *tailBuffer
	timeout time.Duration
	dead    error // set once the process was killed for a timeout
}

// ErrTimeout is returned when a process does not answer within its timeout; the process
// is then killed.
var ErrTimeout = errors.New("no answer in time")

// StartOptions tune StartWith.
type StartOptions struct {
	// Dir is the process's working folder; "" is the current one.
	Dir string
	// Timeout bounds the wait for each answer (the first of a batch counts from the batch's
	// start, each later one from the answer before it); 0 waits for ever. A process that
	// does not answer in time is killed and every later request fails.
	Timeout time.Duration
}

// Start runs argv and returns a client for it, with no timeout.
func Start(argv []string) (*Client, error) { return StartWith(argv, StartOptions{}) }

// StartWith runs argv with opt and returns a client for it.
func StartWith(argv []string, opt StartOptions) (*Client, error) {
	if len(argv) == 0 {
		return nil, errors.New("start reference: empty command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = opt.Dir
	// Its own process group, so that a timeout or Close ends what a shell started too.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
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
	return &Client{cmd: cmd, stdin: stdin, w: bufio.NewWriterSize(stdin, 1<<16), dec: dec, stderr: stderr, timeout: opt.Timeout}, nil
}

// kill ends the process group.
func (c *Client) kill() {
	if c.cmd.Process != nil {
		_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
	}
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
	if c.dead != nil {
		return nil, c.dead
	}
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
	var timer *time.Timer
	var timedOut atomic.Bool
	if c.timeout > 0 {
		timer = time.AfterFunc(c.timeout, func() { timedOut.Store(true); c.kill() })
		defer timer.Stop()
	}
	for i := range reqs {
		if err := c.dec.Decode(&out[i]); err != nil {
			c.stdin.Close() // unblock the writer
			<-werr
			if timedOut.Load() {
				c.dead = fmt.Errorf("answer %d of %d: %w (%s): the process was killed%s", i+1, len(reqs), ErrTimeout, c.timeout, c.stderr.context())
				return nil, c.dead
			}
			return nil, fmt.Errorf("read answer %d of %d: %w%s", i+1, len(reqs), err, c.stderr.context())
		}
		if timer != nil {
			timer.Reset(c.timeout)
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
	var timer *time.Timer
	if c.timeout > 0 {
		timer = time.AfterFunc(c.timeout, c.kill)
		defer timer.Stop()
	}
	err := c.cmd.Wait()
	if c.dead != nil {
		return nil // killed on purpose; DoAll said so
	}
	if err != nil {
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

// Kill ends the process group at once, for cleanup on a signal; Close still waits for it.
func (c *Client) Kill() { c.kill() }
