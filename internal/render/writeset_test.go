//go:build linux

package render

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

var setNames = []string{"report.json", "report.md", "report.html"}

// genSet is a report set whose every file says which generation it belongs to.
func genSet(gen int) []File {
	var fs []File
	for _, name := range setNames {
		// Sizes differ by generation, so that a file of another generation cannot pass.
		fs = append(fs, File{Name: name, Data: []byte(fmt.Sprintf("generation %d of %s\n%s", gen, name, strings.Repeat("x", gen*1000)))})
	}
	return fs
}

// TestWriteSetHelperProcess is the child of TestWriteSetKilled: it writes generation
// COMPACTEVAL_WRITESET_GEN to COMPACTEVAL_WRITESET_DIR and sends itself SIGKILL at step
// COMPACTEVAL_WRITESET_KILL of WriteSet.
func TestWriteSetHelperProcess(t *testing.T) {
	dir := os.Getenv("COMPACTEVAL_WRITESET_DIR")
	if dir == "" {
		t.Skip("the child of TestWriteSetKilled")
	}
	gen, _ := strconv.Atoi(os.Getenv("COMPACTEVAL_WRITESET_GEN"))
	kill, _ := strconv.Atoi(os.Getenv("COMPACTEVAL_WRITESET_KILL"))
	noExchange = os.Getenv("COMPACTEVAL_WRITESET_NO_EXCHANGE") != ""
	n := 0
	step = func(string) {
		if n == kill {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
		n++
	}
	if kill < 0 {
		// Until killed from outside: generations 1 to 50 in turn.
		for g := 1; ; g = g%50 + 1 {
			if err := WriteSet(dir, genSet(g)); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(3)
			}
		}
	}
	if os.Getenv("COMPACTEVAL_WRITESET_LEGACY") != "" {
		// What compacteval run did before WriteSet: one atomic file after another.
		for _, f := range genSet(gen) {
			if err := WriteFile(filepath.Join(dir, f.Name), f.Data); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(3)
			}
			step("wrote " + f.Name)
		}
		return
	}
	if err := WriteSet(dir, genSet(gen)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
}

// checkSet fails unless dir holds one whole generation among gens, and the foreign file,
// and (unless stale) nothing else. It returns the generation.
func checkSet(t *testing.T, dir string, stale bool, gens ...int) int {
	t.Helper()
	gen, err := setState(dir, stale, gens...)
	if err != nil {
		t.Fatal(err)
	}
	return gen
}

// setState is checkSet's check, as an error.
func setState(dir string, stale bool, gens ...int) (int, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return -1, fmt.Errorf("the report folder: %v", err)
	}
	var names []string
	for _, e := range entries {
		if stale && e.Name() == ".report.json.tmp123" {
			continue // removed by the next WriteSet
		}
		names = append(names, e.Name())
	}
	if want := []string{"gate.md", "report.html", "report.json", "report.md"}; !slices.Equal(names, want) {
		return -1, fmt.Errorf("the report folder holds %v, want %v", names, want)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "gate.md")); string(data) != "the gate's verdict\n" {
		return -1, fmt.Errorf("gate.md = %q, want it kept", data)
	}
	for _, gen := range gens {
		whole := true
		for _, f := range genSet(gen) {
			if data, _ := os.ReadFile(filepath.Join(dir, f.Name)); string(data) != string(f.Data) {
				whole = false
			}
		}
		if whole {
			return gen, nil
		}
	}
	var heads []string
	for _, name := range setNames {
		data, _ := os.ReadFile(filepath.Join(dir, name))
		head, _, _ := strings.Cut(string(data), "\n")
		heads = append(heads, head)
	}
	return -1, fmt.Errorf("the report folder holds no whole generation of %v: %q", gens, heads)
}

// checkClean fails if anything but the report folder is left beside it.
func checkClean(t *testing.T, parent string) {
	t.Helper()
	entries, _ := os.ReadDir(parent)
	for _, e := range entries {
		if e.Name() != "latest" {
			t.Errorf("left beside the report folder: %s", e.Name())
		}
	}
}

// TestWriteSetKilled kills a child writing generation 1 over generation 0 at every step of
// WriteSet in turn: the folder always holds one whole generation (and the file that is not
// the report's), and the next WriteSet leaves nothing stale. Without RENAME_EXCHANGE the
// folder may be missing after a kill, and the next WriteSet puts the old set back first.
func TestWriteSetKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process per step")
	}
	for _, mode := range []string{"exchange", "rename"} {
		t.Run(mode, func(t *testing.T) {
			for kill := 0; ; kill++ {
				parent := t.TempDir()
				dir := filepath.Join(parent, "latest")
				if err := WriteSet(dir, genSet(0)); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "gate.md"), []byte("the gate's verdict\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				// A temporary file an older compacteval left when killed.
				os.WriteFile(filepath.Join(dir, ".report.json.tmp123"), []byte("{"), 0o644)
				env := []string{}
				if mode == "rename" {
					env = append(env, "COMPACTEVAL_WRITESET_NO_EXCHANGE=1")
				}
				killed := runChild(t, dir, kill, env...)
				if _, err := os.Stat(dir); err != nil && mode == "rename" && killed {
					// The moment between the two renames: no folder, never a mixed one.
				} else if gen := checkSet(t, dir, true, 0, 1); !killed && gen != 1 {
					t.Fatalf("child finished, but the folder holds generation %d", gen)
				}
				if err := WriteSet(dir, genSet(2)); err != nil {
					t.Fatalf("WriteSet after a kill at step %d: %v", kill, err)
				}
				checkSet(t, dir, false, 2)
				checkClean(t, parent)
				if !killed {
					if kill < 5 {
						t.Fatalf("the child finished after %d steps; the test kills nothing", kill)
					}
					t.Logf("%s: killed at each of %d steps", mode, kill)
					return
				}
			}
		})
	}
}

// runChild runs TestWriteSetHelperProcess writing generation 1 to dir, killed at step
// kill; it reports whether the child was killed (false: it finished).
func runChild(t *testing.T, dir string, kill int, env ...string) bool {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestWriteSetHelperProcess$")
	cmd.Env = append(append(os.Environ(), "COMPACTEVAL_WRITESET_DIR="+dir, "COMPACTEVAL_WRITESET_GEN=1", "COMPACTEVAL_WRITESET_KILL="+strconv.Itoa(kill)), env...)
	out, err := cmd.CombinedOutput()
	if err == nil {
		return false
	}
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("child (kill at step %d): %v\n%s", kill, err, out)
	}
	return true
}

// TestWriteSetKilledLegacy holds the harness of TestWriteSetKilled to the way compacteval
// run wrote its reports before WriteSet (three atomic files in turn): a kill between them
// leaves a mixed set, and the harness must see it.
func TestWriteSetKilledLegacy(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process per step")
	}
	dir := filepath.Join(t.TempDir(), "latest")
	if err := WriteSet(dir, genSet(0)); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "gate.md"), []byte("the gate's verdict\n"), 0o644)
	if !runChild(t, dir, 0, "COMPACTEVAL_WRITESET_LEGACY=1") {
		t.Fatal("the child was not killed")
	}
	if gen, err := setState(dir, false, 0, 1); err == nil {
		t.Fatalf("after a kill between two files, the folder holds a whole generation %d: the harness cannot tell a mixed set", gen)
	} else {
		t.Logf("as expected: %v", err)
	}
}

// TestWriteSetKilledAtRandom kills a child that writes sets in a loop after a random delay,
// wherever it is (inside a write, a rename, a removal), 20 times.
func TestWriteSetKilledAtRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	parent := t.TempDir()
	dir := filepath.Join(parent, "latest")
	if err := WriteSet(dir, genSet(0)); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "gate.md"), []byte("the gate's verdict\n"), 0o644)
	all := make([]int, 51)
	for i := range all {
		all[i] = i
	}
	r := rand.New(rand.NewPCG(1, 2))
	gens, stale := map[int]bool{}, 0
	for trial := range 20 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestWriteSetHelperProcess$")
		cmd.Env = append(os.Environ(), "COMPACTEVAL_WRITESET_DIR="+dir, "COMPACTEVAL_WRITESET_KILL=-1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(5+r.IntN(40)) * time.Millisecond)
		cmd.Process.Kill()
		cmd.Wait()
		gen, err := setState(dir, false, all...)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		gens[gen] = true
		if entries, _ := os.ReadDir(parent); len(entries) > 1 {
			stale++
		}
	}
	t.Logf("20 kills: %d generations seen, %d kills left a temporary folder for the next child to remove", len(gens), stale)
	if err := WriteSet(dir, genSet(2)); err != nil {
		t.Fatal(err)
	}
	checkSet(t, dir, false, 2)
	checkClean(t, parent)
}

func TestWriteSetRefusesFolders(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := WriteSet(dir, genSet(1))
	if err == nil || !strings.Contains(err.Error(), "holds sub, which is not a file") {
		t.Errorf("WriteSet(folder with a subfolder) = %v, want a refusal naming it", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "sub")); err != nil {
		t.Errorf("the subfolder is gone: %v", err)
	}
}

func TestWriteSetThroughLink(t *testing.T) {
	parent := t.TempDir()
	target := filepath.Join(parent, "real")
	link := filepath.Join(parent, "link")
	if err := WriteSet(target, genSet(0)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteSet(link, genSet(1)); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v, %v", fi.Mode(), err)
	}
	if data, _ := os.ReadFile(filepath.Join(target, "report.md")); !strings.HasPrefix(string(data), "generation 1") {
		t.Errorf("the link's target holds %q, want generation 1", data)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o755 {
		t.Errorf("the report folder's mode is %v, want 0755", fi.Mode().Perm())
	}
}
