// Command timerobust times compact.ExtractRobust on benchmark inputs written by
// internal/cmd/benchinputs, for scripts/bench-robust-ts.sh and scripts/module-cost.sh: after
// a warm-up, it runs an input until MS milliseconds of CPU time (user and system, of the
// whole process) have passed, and at least five times, and prints its name, the CPU time
// per run in nanoseconds and its size in bytes, one input a line. The input "corpus" is
// corpus.json, every response of the bundled corpus in turn.
//
//	go run ./internal/cmd/timerobust DIR MS NAME...
//	go run ./internal/cmd/timerobust -beside MODULE DIR MS NAME...
//
// With -beside, it times robust.ts (MODULE, the npm package's robust.js) under Node on the
// same inputs, by scripts/time-robust-ts.mjs in a process it starts and keeps for the whole
// run: input by input, Go, Node, Node and Go again, each for MS, and it prints the name, the
// mean of Go's two times, the mean of Node's and the size. Timed so, the two sides of a row
// are a second or two apart, not minutes: a change in the machine's speed (other tenants of
// the host, a busy neighbour) weighs on both sides of the row, not on one of them.
//
// CPU time rather than wall time: on a machine shared with other work, wall time measures
// the scheduler as much as the code. It sets GOMAXPROCS to 1, as one extraction runs on one
// core and robust.ts has one thread under Node: the garbage collector then works on the
// extraction's core, not beside it on another.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/compacteval/compacteval/compact"
)

func main() {
	beside := flag.String("beside", "", "time `MODULE` (robust.js) under Node beside, alternately")
	warm := flag.Int("warm", 1000, "with -beside, CPU `milliseconds` Node runs an input before it is timed")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: timerobust [-beside MODULE] DIR MS NAME...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() < 3 {
		flag.Usage()
		os.Exit(2)
	}
	dir := flag.Arg(0)
	ms, err := strconv.Atoi(flag.Arg(1))
	if err != nil || ms <= 0 {
		fmt.Fprintf(os.Stderr, "timerobust: MS %q: not a positive number of milliseconds\n", flag.Arg(1))
		os.Exit(2)
	}
	if err := time1(dir, time.Duration(ms)*time.Millisecond, flag.Args()[2:], *beside, time.Duration(*warm)*time.Millisecond); err != nil {
		fmt.Fprintln(os.Stderr, "timerobust:", err)
		os.Exit(1)
	}
}

func time1(dir string, budget time.Duration, names []string, module string, warm time.Duration) error {
	runtime.GOMAXPROCS(1)
	var ts *nodeTimer
	if module != "" {
		var err error
		if ts, err = startNode(module, dir, warm); err != nil {
			return err
		}
		defer ts.close()
	}
	for _, name := range names {
		texts, err := inputs(dir, name)
		if err != nil {
			return err
		}
		bytes := 0
		for _, t := range texts {
			bytes += len(t)
		}
		run(texts, 2*budget) // warm-up, as scripts/time-robust-ts.mjs warms up the JIT
		if ts == nil {
			fmt.Println(name, run(texts, budget).Nanoseconds(), bytes)
			continue
		}
		g1 := run(texts, budget)
		t1, err := ts.time(name, budget, bytes)
		if err != nil {
			return err
		}
		t2, err := ts.time(name, budget, bytes)
		if err != nil {
			return err
		}
		g2 := run(texts, budget)
		fmt.Println(name, ((g1 + g2) / 2).Nanoseconds(), (t1+t2)/2, bytes)
	}
	return nil
}

func inputs(dir, name string) ([]string, error) {
	if name == "corpus" {
		b, err := os.ReadFile(filepath.Join(dir, "corpus.json"))
		if err != nil {
			return nil, err
		}
		var texts []string
		if err := json.Unmarshal(b, &texts); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "corpus.json"), err)
		}
		return texts, nil
	}
	b, err := os.ReadFile(filepath.Join(dir, name+".txt"))
	return []string{string(b)}, err
}

// minRuns is the fewest rounds a time is taken over, however long a round takes: a 10 MB
// input runs about once in 100 ms, and one round's time is then whether a major collection
// fell in it (robust.ts on mixed-fences-10MB: 87 to 191 ms a round in one process). Over five
// rounds a collection's cost is shared out as in a long run. scripts/time-robust-ts.mjs
// takes as many.
const minRuns = 5

// run extracts every text in turn until budget of CPU time has passed, and at least minRuns
// times, and returns the CPU time per round.
func run(texts []string, budget time.Duration) time.Duration {
	start := cpu()
	n := time.Duration(0)
	for n < minRuns || cpu()-start < budget {
		for _, t := range texts {
			compact.ExtractRobust(t)
		}
		n++
	}
	return (cpu() - start) / n
}

// nodeTimer is scripts/time-robust-ts.mjs answering requests on its standard input: a line
// "NAME MS WARM" asks for the CPU time per run of NAME, timed for MS milliseconds (after
// WARM milliseconds the first time NAME is asked for), and the answer is the line "NAME
// NANOSECONDS BYTES". The JIT's threads compile while an input warms up, and the process's
// CPU time counts them: the corpus's answers settle after about 0.7 s of CPU.
type nodeTimer struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Scanner
	warm time.Duration
}

// script is the Node side's timer; timerobust -beside runs from the repository's root, as
// scripts/bench-robust-ts.sh runs it.
const script = "scripts/time-robust-ts.mjs"

func startNode(module, dir string, warm time.Duration) (*nodeTimer, error) {
	if _, err := os.Stat(script); err != nil {
		return nil, fmt.Errorf("-beside: %w (run timerobust from the repository's root)", err)
	}
	cmd := exec.Command("node", script, module, dir)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("-beside: %w", err)
	}
	return &nodeTimer{cmd: cmd, in: in, out: bufio.NewScanner(out), warm: warm}, nil
}

// time asks for name's time per run; Node's size of it must be bytes, as both sides read the
// same files.
func (t *nodeTimer) time(name string, budget time.Duration, bytes int) (int64, error) {
	if _, err := fmt.Fprintf(t.in, "%s %d %d\n", name, budget.Milliseconds(), t.warm.Milliseconds()); err != nil {
		return 0, fmt.Errorf("-beside: asking for %s: %w", name, err)
	}
	if !t.out.Scan() {
		return 0, fmt.Errorf("-beside: no time for %s: node ended (%v)", name, t.out.Err())
	}
	f := strings.Fields(t.out.Text())
	if len(f) != 3 || f[0] != name || f[2] != strconv.Itoa(bytes) {
		return 0, fmt.Errorf("-beside: asked for %s (%d bytes), node answered %q", name, bytes, t.out.Text())
	}
	return strconv.ParseInt(f[1], 10, 64)
}

// close ends Node's input, on which it exits, and waits for it.
func (t *nodeTimer) close() {
	t.in.Close()
	t.cmd.Wait()
}
