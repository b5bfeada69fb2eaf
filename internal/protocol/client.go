package protocol

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/compacteval/compacteval/internal/reap"
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
//
// Every request carries an id (1, 2, 3, ... in the order sent) and every answer must name
// the id of the request it answers; an answer with another id, without one, or a line
// after the last answer is a *ProtocolError, and the client answers nothing more.
type Client struct {
	mu      sync.Mutex
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	w       *bufio.Writer
	stdout  *os.File // the read end of the process's stdout
	r       *bufio.Reader
	stderr  *tailBuffer
	timeout time.Duration
	orderOK bool  // answers without an id are taken in order
	bytes   bool  // texts go as bytes after their request line (StartOptions.TextBytes)
	sent    int64 // the last id sent
	line    int   // stdout lines read
	dead    error // set once the process was killed for a timeout or broke the protocol
	ctx     context.Context
	stopCtx func() bool // unregisters the kill on ctx's end
	closed  atomic.Bool // Close is done: the process group may be another's now
}

// ProtocolError is an answer line that breaks the protocol: not JSON, or naming a request
// it does not answer, or one too many.
type ProtocolError struct {
	Line   int    // the line of the process's stdout, from 1
	Text   string // the line, shortened
	Reason string
}

func (e *ProtocolError) Error() string {
	return fmt.Sprintf("protocol error at stdout line %d: %s: %s", e.Line, e.Reason, e.Text)
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
	// OrderOnly takes answers that carry no id in order, as the reference runner
	// (reference.mjs) and compacteval pipe before ids write them. An answer that carries an
	// id is checked all the same. Without it an answer without an id is a ProtocolError.
	OrderOnly bool
	// TextBytes sends each text of valid UTF-8 as bytes after its request line rather than
	// as a JSON string in it (docs/protocol.md, "Texts as bytes"), for a process that reads
	// them so: compacteval's own runner of a module (internal/extractor's runner.mjs).
	TextBytes bool
}

// Start runs argv and returns a client for it, with no timeout, taking answers without ids
// in order (OrderOnly): it is for the reference runner and the runners of this repository's
// tests, whose answers are one line per request by construction.
func Start(argv []string) (*Client, error) {
	return StartWith(context.Background(), argv, StartOptions{OrderOnly: true})
}

// StartWith runs argv with opt and returns a client for it. When ctx is done the process
// group is killed (a request being answered fails with an error wrapping context.Cause(ctx));
// Close still waits for the process.
//
// The process is started by reap.Start: on Linux it dies with the calling process, even
// killed by SIGKILL, and after reap.Init what it starts is in the command's cgroup.
func StartWith(ctx context.Context, argv []string, opt StartOptions) (*Client, error) {
	if len(argv) == 0 {
		return nil, errors.New("start reference: empty command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = opt.Dir
	// Its own process group, so that a timeout or Close ends what a shell started too.
	ownGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("start reference: %w", err)
	}
	// Our own pipe rather than StdoutPipe: Wait does not close it, so Close reads what the
	// process wrote before it exited, to the end, after Wait.
	stdout, pw, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start reference: %w", err)
	}
	cmd.Stdout = pw
	stderr := &tailBuffer{max: 4096}
	cmd.Stderr = stderr
	// A process it started in another session can hold stderr open after it exits: Wait
	// gives up on it then (the run's end kills that process, see internal/reap).
	cmd.WaitDelay = closeGrace
	err = reap.Start(cmd)
	pw.Close()
	if err != nil {
		stdout.Close()
		return nil, fmt.Errorf("start reference %s: %w", strings.Join(argv, " "), err)
	}
	c := &Client{cmd: cmd, stdin: stdin, w: bufio.NewWriterSize(stdin, 1<<16), stdout: stdout, r: bufio.NewReaderSize(stdout, 1<<16),
		stderr: stderr, timeout: opt.Timeout, orderOK: opt.OrderOnly, bytes: opt.TextBytes, ctx: ctx}
	c.stopCtx = context.AfterFunc(ctx, c.kill)
	return c, nil
}

// closeGrace bounds how long Close waits, after the process exited and its process group
// was killed, for its stdout and stderr to end: only a process it started in a session of
// its own (setsid) can hold them open that long, and its lines are no answers.
const closeGrace = 5 * time.Second

// kill ends the process group.
func (c *Client) kill() {
	if c.cmd.Process != nil && !c.closed.Load() {
		killGroup(c.cmd.Process)
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
// answers are read, so a batch costs one round trip, not one per request. An answer that
// breaks the protocol fails this call and every later one with a *ProtocolError.
func (c *Client) DoAll(reqs []Request) ([]Response, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dead == nil && c.ctx.Err() != nil {
		c.kill()
		c.dead = fmt.Errorf("the process was killed: %w", context.Cause(c.ctx))
	}
	if c.dead != nil {
		return nil, c.dead
	}
	first := c.sent + 1
	c.sent += int64(len(reqs))
	werr := make(chan error, 1)
	go func() {
		for i, r := range reqs {
			r.ID = json.RawMessage(strconv.FormatInt(first+int64(i), 10))
			if err := writeRequest(c.w, r, c.bytes); err != nil {
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
		if err := c.read(&out[i], first+int64(i)); err != nil {
			c.stdin.Close() // unblock the writer
			<-werr
			var pe *ProtocolError
			switch {
			case c.ctx.Err() != nil:
				c.kill()
				c.dead = fmt.Errorf("answer %d of %d: the process was killed: %w", i+1, len(reqs), context.Cause(c.ctx))
			case timedOut.Load():
				c.dead = fmt.Errorf("answer %d of %d: %w (%s): the process was killed%s", i+1, len(reqs), ErrTimeout, c.timeout, c.stderr.context())
			case errors.As(err, &pe):
				c.kill()
				c.dead = err
			default:
				// Its stdout ended: it exited (or closed it); say how, as a shell would.
				c.kill()
				exit := ""
				if werr := c.cmd.Wait(); werr != nil {
					exit = ": the process ended: " + werr.Error()
				} else {
					exit = ": the process exited with status 0"
				}
				c.dead = fmt.Errorf("read answer %d of %d: %w%s%s", i+1, len(reqs), err, exit, c.stderr.context())
			}
			return nil, c.dead
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

// read reads the answer to request id into resp: the next line that is not blank, which
// must be JSON and name id (or, with orderOK, name no id).
func (c *Client) read(resp *Response, id int64) error {
	for {
		b, err := c.readLine()
		if errors.Is(err, errLineTooLong) {
			c.line++
			return &ProtocolError{Line: c.line, Text: shorten(b), Reason: fmt.Sprintf("an answer longer than %d MiB, the limit on one answer line", MaxAnswerBytes>>20)}
		}
		if len(b) == 0 && err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return err
		}
		c.line++
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		bad := func(format string, args ...any) error {
			return &ProtocolError{Line: c.line, Text: shorten(b), Reason: fmt.Sprintf(format, args...)}
		}
		// Most answers carry a summary: decoded at once, the line is read twice (validated,
		// then decoded) rather than six times (its id, the answer, the summary, each
		// validated and decoded).
		var head struct {
			ID json.RawMessage `json:"id"`
		}
		fast := decodeSummary(b, resp)
		if fast {
			head.ID = resp.ID
		} else if err := json.Unmarshal(b, &head); err != nil {
			return bad("not a JSON object: %v", err)
		}
		switch got := string(head.ID); {
		case got == "" || got == "null":
			if !c.orderOK {
				return bad("no id, want the answer to request %d naming it (an extra line, or a process that predates ids: docs/protocol.md)", id)
			}
		case got != strconv.FormatInt(id, 10):
			n, err := strconv.ParseInt(got, 10, 64)
			if err == nil && n >= 1 && n < id {
				return bad("id %s was answered already, want %d: an extra line", got, id)
			}
			return bad("unknown id %s, want %d", got, id)
		}
		if fast {
			return nil
		}
		if err := json.Unmarshal(b, resp); err != nil {
			return bad("%v", err)
		}
		return nil
	}
}

// shorten returns a line for an error message: at most 80 bytes, quoted when it holds
// what a terminal would not show.
func shorten(b []byte) string {
	s := string(bytes.TrimRight(b, "\r\n"))
	more := ""
	if len(s) > 80 {
		s, more = strings.ToValidUTF8(s[:77], ""), "..."
	}
	if !strconv.CanBackquote(s) {
		s = strconv.Quote(s)
	}
	return s + more
}

// Close ends the process and waits for it, then kills what is left of its process group
// (a child it started in the background). A line the process wrote after its last answer
// is a *ProtocolError.
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stopCtx()
	c.stdin.Close()
	var timer *time.Timer
	if c.timeout > 0 {
		timer = time.AfterFunc(c.timeout, c.kill)
		defer timer.Stop()
	}
	extra := make(chan error, 1)
	go func() { extra <- c.rest() }()
	err := c.cmd.Wait()
	c.kill()
	var extraErr error
	select {
	case extraErr = <-extra:
	case <-time.After(closeGrace):
		// A process in another session holds stdout open; what it writes is no answer.
	}
	c.stdout.Close()
	c.closed.Store(true)
	if c.dead != nil || c.ctx.Err() != nil {
		return nil // killed on purpose; DoAll said so, or the caller stopped it
	}
	if extraErr != nil {
		return extraErr
	}
	if err != nil {
		return fmt.Errorf("reference exited: %w%s", err, c.stderr.context())
	}
	return nil
}

// MaxAnswerBytes bounds one answer line: a process that writes more (a 60 MB answer made a
// 63 MB report.json) fails with a protocol error. A summary is at most a few hundred
// kilobytes, and the longest response of the corpus under 200 KB.
const MaxAnswerBytes = 16 << 20

var errLineTooLong = errors.New("line too long")

// readLine reads a line as ReadBytes('\n') does, or returns its first MaxAnswerBytes and
// errLineTooLong when it is longer (the rest is not read).
func (c *Client) readLine() ([]byte, error) {
	var line []byte
	for {
		frag, err := c.r.ReadSlice('\n')
		if len(line)+len(frag) > MaxAnswerBytes {
			return append(line, frag[:MaxAnswerBytes-len(line)]...), errLineTooLong
		}
		line = append(line, frag...)
		if err != bufio.ErrBufferFull {
			return line, err
		}
	}
}

// rest reads stdout to its end and returns a *ProtocolError for the first line that is
// not blank: every request was answered, so it is one too many. After a protocol error or
// a timeout it reads nothing.
func (c *Client) rest() error {
	if c.dead != nil {
		return nil
	}
	var first error
	for {
		b, err := c.r.ReadBytes('\n')
		if len(b) > 0 {
			c.line++
			if first == nil && len(bytes.TrimSpace(b)) > 0 {
				first = &ProtocolError{Line: c.line, Text: shorten(b), Reason: fmt.Sprintf("a line after the answer to the last request (%d): an extra line", c.sent)}
			}
		}
		if err != nil {
			return first
		}
	}
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

// Kill ends the process group at once; a request being answered fails, and Close still
// waits for the process. It is safe to call at any time, from any goroutine.
func (c *Client) Kill() { c.kill() }

// Pid returns the id of the client's process, for measuring what it uses.
func (c *Client) Pid() int { return c.cmd.Process.Pid }
