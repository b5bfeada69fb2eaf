//go:build unix

// Package proctest checks the process table for the tests that kill a command or cancel
// its context and expect its processes gone.
package proctest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Alive reports whether process pid runs: it exists and, where /proc says, is not a
// zombie (an exited process that its parent, or a container's init, has not reaped yet).
func Alive(pid int) bool {
	if pid <= 0 || errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return !os.IsNotExist(err) // no /proc: kill -0 said it exists
	}
	// "PID (comm) S ...": the state follows the last ')'.
	if i := bytes.LastIndexByte(b, ')'); i >= 0 {
		if f := bytes.Fields(b[i+1:]); len(f) > 0 && string(f[0]) == "Z" {
			return false
		}
	}
	return true
}

// poll is how often WaitGone looks again; it waits as long as the test may run.
const poll = 20 * time.Millisecond

// WaitGone waits until none of pids is alive. It does not bound the wait by the machine's
// speed: it fails only when the test's own deadline (go test -timeout) is a few seconds
// away, naming the processes still running, and kills them.
func WaitGone(t testing.TB, pids ...int) {
	t.Helper()
	end := time.Now().Add(10 * time.Minute)
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if dl, ok := d.Deadline(); ok {
			end = dl.Add(-5 * time.Second)
		}
	}
	for {
		var left []int
		for _, p := range pids {
			if Alive(p) {
				left = append(left, p)
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(end) {
			var desc []string
			for _, p := range left {
				cmd, _ := os.ReadFile("/proc/" + strconv.Itoa(p) + "/cmdline")
				desc = append(desc, fmt.Sprintf("%d (%s)", p, strings.ReplaceAll(strings.TrimRight(string(cmd), "\x00"), "\x00", " ")))
				syscall.Kill(p, syscall.SIGKILL)
			}
			t.Fatalf("processes still running: %s", strings.Join(desc, ", "))
		}
		time.Sleep(poll)
	}
}

// ReadPIDs waits until each file holds a process id, as a test's child writes it, and
// returns the ids. It waits as WaitGone does.
func ReadPIDs(t testing.TB, files ...string) []int {
	t.Helper()
	end := time.Now().Add(10 * time.Minute)
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if dl, ok := d.Deadline(); ok {
			end = dl.Add(-5 * time.Second)
		}
	}
	out := make([]int, len(files))
	for i, f := range files {
		for {
			b, _ := os.ReadFile(f)
			if s := strings.TrimSpace(string(b)); strings.HasSuffix(string(b), "\n") && s != "" {
				pid, err := strconv.Atoi(s)
				if err != nil {
					t.Fatalf("%s: not a process id: %q", f, b)
				}
				out[i] = pid
				break
			}
			if time.Now().After(end) {
				t.Fatalf("%s: no process id was written", f)
			}
			time.Sleep(poll)
		}
	}
	return out
}

// Children returns the ids of the children of process pid, from /proc (nil without it).
func Children(pid int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		if f := bytes.Fields(b[i+1:]); len(f) > 1 && string(f[1]) == strconv.Itoa(pid) {
			out = append(out, p)
		}
	}
	return out
}
