package compact

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/internal/textgen"
)

// The linearity tests count robust's instructions, not its time: callgrind (valgrind) runs
// this package's test binary once, as a child that extracts every family of textgen.Families at two
// sizes, and dumps the instructions of each call of linearMeasured, which do not depend on
// the machine or its load. Nothing in the policy counts its own work.

// linearEnv is set in the child's environment.
const linearEnv = "COMPACT_LINEAR_CHILD"

// linearBase is the smaller size of each family; the larger is ten times it.
const linearBase = 20 << 10

// countedBase is linearBase for callgrind, which runs the code some fifty times slower:
// 10 KB and 100 KB show a quadratic path as well (its count per byte grows tenfold), at
// half the cost.
const countedBase = 10 << 10

// linearMeasured is the function whose instructions callgrind counts, one dump per call.
//
//go:noinline
func linearMeasured(f func(string), text string) { f(text) }

// linearWork is what the child measures for each family and size, in this order.
var linearWork = []struct {
	name string
	f    func(string)
}{
	{"robust", func(text string) { ExtractRobust(text) }},
	{"full scan", func(text string) { extractRobust(text, true) }},
	{"fast path", func(text string) { fastBlock(text) }},
}

// TestRobustLinearChild is the child of TestRobustLinear; it does nothing unless run by it.
func TestRobustLinearChild(t *testing.T) {
	if os.Getenv(linearEnv) == "" {
		t.Skip("run by TestRobustLinear under callgrind")
	}
	small, large := textgen.Families(countedBase), textgen.Families(10*countedBase)
	runtime.LockOSThread() // callgrind counts the thread that entered linearMeasured
	for i := range small {
		for _, text := range []string{small[i].Text, large[i].Text} {
			for _, w := range linearWork {
				linearMeasured(w.f, text)
			}
		}
	}
}

// TestRobustLinear counts the instructions of ExtractRobust, of its full scan alone and of
// its fast path alone on every adversarial family at 10 KB and 100 KB: per input byte none
// may grow by more than a quarter (a quadratic path gives a ratio near 10), and
// ExtractRobust must stay at 150 a byte or under (the floor of issue 26). It needs valgrind,
// and is skipped without it or with -short.
func TestRobustLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: callgrind takes a minute")
	}
	valgrind, err := exec.LookPath("valgrind")
	if err != nil {
		t.Skip("valgrind is not on PATH: robust's instructions are not counted")
	}
	dir := t.TempDir()
	// The binary go test runs has no symbol table, which callgrind needs to find
	// linearMeasured: the child is this package's test binary built with one. -w leaves
	// out the DWARF, which callgrind does not need to count and which lengthens the link.
	bin := filepath.Join(dir, "compact.test")
	if b, err := exec.Command("go", "test", "-c", "-ldflags=-w", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, b)
	}
	out := filepath.Join(dir, "cg.out")
	cmd := exec.Command(valgrind, "--tool=callgrind", "--callgrind-out-file="+out,
		"--toggle-collect=*.linearMeasured", "--dump-after=*.linearMeasured",
		bin, "-test.run=^TestRobustLinearChild$", "-test.count=1", "-test.v")
	// Go's signals and goroutines upset callgrind: one thread, no preemption, no collector.
	cmd.Env = append(os.Environ(), linearEnv+"=1", "GODEBUG=asyncpreemptoff=1", "GOMAXPROCS=1", "GOGC=off")
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("callgrind: %v\n%s", err, b)
	}
	families := textgen.Families(1)
	counts := make([]int64, 0, 2*len(families)*len(linearWork))
	for k := 1; ; k++ {
		n, err := callgrindTotal(fmt.Sprintf("%s.%d", out, k))
		if os.IsNotExist(err) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		counts = append(counts, n)
	}
	if len(counts) != cap(counts) {
		t.Fatalf("callgrind dumped %d calls of linearMeasured, want %d; its output:\n%s", len(counts), cap(counts), b)
	}
	small, large := float64(countedBase), float64(10*countedBase)
	for i, f := range families {
		for w, work := range linearWork {
			c1 := counts[(2*i)*len(linearWork)+w]
			c10 := counts[(2*i+1)*len(linearWork)+w]
			if c1 <= 0 {
				t.Errorf("%s: %s: no instructions counted", f.Name, work.name)
				continue
			}
			p1, p10 := float64(c1)/small, float64(c10)/large
			if r := p10 / p1; r > 1.25 {
				t.Errorf("%s: %s: instructions per byte grow %.2fx from %d to %d bytes (%d -> %d), want linear", f.Name, work.name, r, countedBase, 10*countedBase, c1, c10)
			}
			if work.name == "robust" && p10 > 150 {
				t.Errorf("%s: %s: %.1f instructions per byte at %d bytes, want at most 150", f.Name, work.name, p10, 10*countedBase)
			}
			t.Logf("%-28s %-9s %6.1f instructions/byte at %d bytes, x10: %.2fx per byte", f.Name, work.name, p1, countedBase, p10/p1)
		}
	}
}

// callgrindTotal returns the instructions of one callgrind dump (its "totals:" or
// "summary:" line).
func callgrindTotal(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		for _, key := range []string{"totals: ", "summary: "} {
			if v, ok := strings.CutPrefix(sc.Text(), key); ok {
				return strconv.ParseInt(strings.Fields(v)[0], 10, 64)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("%s: no totals line", path)
}

// TestRobustAllocLinear counts the bytes robust's full scan allocates on every family at
// 20 KB and 200 KB: at most 8 per input byte, and growing like the input.
func TestRobustAllocLinear(t *testing.T) {
	alloc := func(text string) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		extractRobust(text, true)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := textgen.Families(linearBase), textgen.Families(10*linearBase)
	for i, f := range small {
		a1, a10 := alloc(f.Text), alloc(large[i].Text)
		n1, n10 := float64(len(f.Text)), float64(len(large[i].Text))
		if perByte := float64(a10) / n10; perByte > 8 {
			t.Errorf("%s: %.1f bytes allocated per input byte at %d bytes, want at most 8", f.Name, perByte, len(large[i].Text))
		}
		if r := (float64(a10) / n10) / (max(float64(a1), 1) / n1); a10 > 64<<10 && r > 1.5 {
			t.Errorf("%s: allocation per byte grows %.2fx from %d to %d bytes (%d -> %d)", f.Name, r, len(f.Text), len(large[i].Text), a1, a10)
		}
	}
}
