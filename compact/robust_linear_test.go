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
// this package's test binary once, as a child that extracts every family of textgen.Families at
// three sizes, and dumps the instructions of each call of linearMeasured, which do not depend
// on the machine or its load. Nothing in the policy counts its own work.

// linearEnv is set in the child's environment.
const linearEnv = "COMPACT_LINEAR_CHILD"

// linearBase is the smaller size of each family; the larger is ten times it.
const linearBase = 20 << 10

// countedSizes are the sizes callgrind counts each family at, which runs the code some fifty
// times slower: three, each ten times the last, so that growth shows twice. A quadratic path
// grows tenfold per step; one that grows 11x per 10x (an n log n sort) grows 10% per byte,
// which the bound of 5% sees. The smallest is large enough that per-call costs do not hide
// growth; the largest small enough that make test spends about as long as it did with two.
var countedSizes = [...]int{2 << 10, 20 << 10, 200 << 10}

// maxGrowth bounds how much the instructions per input byte may grow from one size to the
// next (ten times larger).
const maxGrowth = 1.05

// maxPerByte bounds robust's instructions per input byte at the largest size.
const maxPerByte = 100

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
	var sized [len(countedSizes)][]textgen.BenchInput
	for k, n := range countedSizes {
		sized[k] = textgen.Families(n)
	}
	runtime.LockOSThread() // callgrind counts the thread that entered linearMeasured
	// The runtime maps more heap when what it has runs out, a cost in instructions that
	// fell on whichever call needed it (a tenth more instructions a byte on one count).
	// The heap is grown once here, and collected after each call, so that each call finds
	// free memory that is already there.
	warm := make([]byte, 64<<20)
	runtime.KeepAlive(warm)
	warm = nil
	runtime.GC()
	for i := range sized[0] {
		for k := range sized {
			for _, w := range linearWork {
				linearMeasured(w.f, sized[k][i].Text)
				runtime.GC()
			}
		}
	}
}

// TestRobustLinear counts the instructions of ExtractRobust, of its full scan alone and of
// its fast path alone on every adversarial family at 2 KB, 20 KB and 200 KB: per input byte
// none may grow by more than 5% from one size to the next (a quadratic path grows tenfold,
// an n log n one about 10%), and ExtractRobust must stay at maxPerByte a byte or under. It
// needs valgrind, and is skipped without it or with -short.
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
	// Valgrind 3.19 does not know RDTSCP, which the runtime reads the clock with where the
	// CPU has it: about one child in eleven died of SIGILL.
	cmd.Env = append(os.Environ(), linearEnv+"=1", "GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off", "GOMAXPROCS=1", "GOGC=off")
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("callgrind: %v\n%s", err, b)
	}
	families := textgen.Families(1)
	counts := make([]int64, 0, len(countedSizes)*len(families)*len(linearWork))
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
		// The files callgrind left, by name: a gap in the numbering and a missing run show apart.
		var names []string
		if entries, err := os.ReadDir(dir); err == nil {
			for _, e := range entries {
				names = append(names, e.Name())
			}
		}
		t.Fatalf("callgrind dumped %d calls of linearMeasured, want %d; in %s: %d files %.400q; its output:\n%s", len(counts), cap(counts), dir, len(names), names, b)
	}
	problems, table := linearProblems(families, counts)
	for _, l := range table {
		t.Log(l)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// linearProblems judges counts, the instructions of each family at each of countedSizes for
// each of linearWork in the child's order, against maxGrowth and maxPerByte: it returns
// what breaks them, and a line of instructions per byte for each family and work.
func linearProblems(families []textgen.BenchInput, counts []int64) (problems, table []string) {
	at := func(i, k, w int) int64 { return counts[(i*len(countedSizes)+k)*len(linearWork)+w] }
	last := len(countedSizes) - 1
	for i, f := range families {
		for w, work := range linearWork {
			per := make([]float64, len(countedSizes))
			for k, n := range countedSizes {
				per[k] = float64(at(i, k, w)) / float64(n)
			}
			if per[0] <= 0 {
				problems = append(problems, fmt.Sprintf("%s: %s: no instructions counted", f.Name, work.name))
				continue
			}
			for k := 1; k <= last; k++ {
				if r := per[k] / per[k-1]; r > maxGrowth {
					problems = append(problems, fmt.Sprintf("%s: %s: instructions per byte grow %.3fx from %d to %d bytes (%.1f -> %.1f a byte), want at most %.2fx: not linear",
						f.Name, work.name, r, countedSizes[k-1], countedSizes[k], per[k-1], per[k], maxGrowth))
				}
			}
			if work.name == "robust" && per[last] > maxPerByte {
				problems = append(problems, fmt.Sprintf("%s: %s: %.1f instructions per byte at %d bytes, want at most %d", f.Name, work.name, per[last], countedSizes[last], maxPerByte))
			}
			table = append(table, fmt.Sprintf("%-28s %-9s %6.1f %6.1f %6.1f instructions/byte at %v bytes", f.Name, work.name, per[0], per[1], per[2], countedSizes))
		}
	}
	return problems, table
}

// TestLinearProblems holds TestRobustLinear's judgement to counts made up for one family:
// linear counts pass; 11x the instructions per 10x the input (an n log n sort), once in
// either step, fails; so does a count over maxPerByte.
func TestLinearProblems(t *testing.T) {
	families := []textgen.BenchInput{{Name: "made-up"}}
	counts := func(perByte [len(countedSizes)]float64) []int64 {
		var out []int64
		for k, n := range countedSizes {
			for range linearWork {
				out = append(out, int64(perByte[k]*float64(n)))
			}
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		perByte [len(countedSizes)]float64
		fails   bool
	}{
		{name: "linear, falling per-call costs", perByte: [...]float64{60, 52, 50}},
		{name: "4% growth per step", perByte: [...]float64{50, 52, 54.08}},
		{name: "11x per 10x in the first step", perByte: [...]float64{50, 55, 55}, fails: true},
		{name: "11x per 10x in the last step", perByte: [...]float64{50, 50, 55}, fails: true},
		{name: "linear but over the floor", perByte: [...]float64{160, 160, 160}, fails: true},
	} {
		problems, _ := linearProblems(families, counts(tc.perByte))
		if got := len(problems) > 0; got != tc.fails {
			t.Errorf("%s: linearProblems(%v a byte) = %q, want failing %v", tc.name, tc.perByte, problems, tc.fails)
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
// 20 KB, 200 KB and 2 MB: at most 8 per input byte at every size, and growing like the
// input (a slice grown by append's quarter steps allocates up to five times its length, a
// ratio that shows only at the larger sizes).
func TestRobustAllocLinear(t *testing.T) {
	alloc := func(text string) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		extractRobust(text, true)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	sizes := []int{linearBase, 10 * linearBase, 100 * linearBase}
	if testing.Short() {
		sizes = sizes[:2]
	}
	sized := make([][]textgen.BenchInput, len(sizes))
	for k, n := range sizes {
		sized[k] = textgen.Families(n)
	}
	for i, f := range sized[0] {
		per := make([]float64, len(sizes))
		for k := range sizes {
			text := sized[k][i].Text
			a := alloc(text)
			per[k] = float64(a) / float64(len(text))
			if per[k] > 8 {
				t.Errorf("%s: %.1f bytes allocated per input byte at %d bytes, want at most 8", f.Name, per[k], len(text))
			}
			if k > 0 && a > 64<<10 && per[k] > 1.5*max(per[k-1], 1/float64(len(sized[k-1][i].Text))) {
				t.Errorf("%s: allocation per byte grows %.2fx from %d to %d bytes (%.2f -> %.2f a byte)", f.Name, per[k]/per[k-1], len(sized[k-1][i].Text), len(text), per[k-1], per[k])
			}
		}
	}
}

// FuzzRobustLinear repeats a unit of text, seeded with every family of textgen.Families,
// to about 20 KB and to ten times that, and holds robust's full scan to the allocation
// bounds of TestRobustAllocLinear on the two: at most 8 bytes allocated per input byte, and
// no more than half as much again per byte at the larger size. Allocation, not time: the
// fuzzer finds the shapes whose memory grows faster than the input, and a shape it finds
// joins the families, where TestRobustLinear counts its instructions.
//
//	go test -run='^$' -fuzz='^FuzzRobustLinear$' -fuzztime=60s ./compact
func FuzzRobustLinear(f *testing.F) {
	for _, fam := range textgen.Families(1) {
		f.Add(fam.Text)
	}
	f.Fuzz(func(t *testing.T, unit string) {
		if len(unit) == 0 || len(unit) > 512 {
			return // nothing to repeat, or too few copies to show growth
		}
		alloc := func(text string) float64 {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			extractRobust(text, true)
			runtime.ReadMemStats(&after)
			return float64(after.TotalAlloc-before.TotalAlloc) / float64(len(text))
		}
		small := strings.Repeat(unit, (20<<10)/len(unit)+1)
		large := strings.Repeat(unit, 10*((20<<10)/len(unit)+1))
		p1, p10 := alloc(small), alloc(large)
		if p10 > 8 {
			t.Errorf("robust allocates %.1f bytes per input byte on %d copies of %q, want at most 8", p10, len(large)/len(unit), unit)
		}
		if p10 > 1.5*p1 && p10*float64(len(large)) > 64<<10 {
			t.Errorf("robust's allocation per byte grows %.2fx from %d to %d copies of %q (%.2f -> %.2f a byte)", p10/p1, len(small)/len(unit), len(large)/len(unit), unit, p1, p10)
		}
	})
}
