// Command timerobust times compact.ExtractRobust on benchmark inputs written by
// internal/cmd/benchinputs, as scripts/time-robust-ts.mjs times robust.ts under Node, for
// scripts/bench-robust-ts.sh: after a warm-up, it runs an input until MS milliseconds of
// CPU time (user and system, of the whole process) have passed and prints its name, the
// CPU time per run in nanoseconds and its size in bytes, one input a line. The input
// "corpus" is corpus.json, every response of the bundled corpus in turn.
//
//	go run ./internal/cmd/timerobust DIR MS NAME...
//
// CPU time rather than wall time: on a machine shared with other work, wall time measures
// the scheduler as much as the code. It sets GOMAXPROCS to 1, as one extraction runs on one
// core and robust.ts has one thread under Node: the garbage collector then works on the
// extraction's core, not beside it on another.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"github.com/compacteval/compacteval/compact"
)

func main() {
	if len(os.Args) < 4 {
		fmt.Fprintln(os.Stderr, "usage: timerobust DIR MS NAME...")
		os.Exit(2)
	}
	dir := os.Args[1]
	ms, err := strconv.Atoi(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, "timerobust: MS:", err)
		os.Exit(2)
	}
	budget := time.Duration(ms) * time.Millisecond
	runtime.GOMAXPROCS(1)
	for _, name := range os.Args[3:] {
		texts, err := inputs(dir, name)
		if err != nil {
			fmt.Fprintln(os.Stderr, "timerobust:", err)
			os.Exit(2)
		}
		bytes := 0
		for _, t := range texts {
			bytes += len(t)
		}
		run(texts, 2*budget) // warm-up, as scripts/time-robust-ts.mjs warms up the JIT
		fmt.Println(name, run(texts, budget).Nanoseconds(), bytes)
	}
}

func inputs(dir, name string) ([]string, error) {
	if name == "corpus" {
		b, err := os.ReadFile(filepath.Join(dir, "corpus.json"))
		if err != nil {
			return nil, err
		}
		var texts []string
		if err := json.Unmarshal(b, &texts); err != nil {
			return nil, fmt.Errorf("corpus.json: %w", err)
		}
		return texts, nil
	}
	b, err := os.ReadFile(filepath.Join(dir, name+".txt"))
	return []string{string(b)}, err
}

// run extracts every text in turn until budget of CPU time has passed (at least once) and
// returns the CPU time per round.
func run(texts []string, budget time.Duration) time.Duration {
	start := cpu()
	n := time.Duration(0)
	for n == 0 || cpu()-start < budget {
		for _, t := range texts {
			compact.ExtractRobust(t)
		}
		n++
	}
	return (cpu() - start) / n
}
