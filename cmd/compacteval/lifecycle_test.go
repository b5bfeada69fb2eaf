//go:build unix

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/compacteval/compacteval/internal/reap"
	"github.com/compacteval/compacteval/internal/testhelp/proctest"
)

// These tests run compacteval as a user does (the binary testscript puts on PATH), signal
// or kill it while an extractor or a build holds it, and read the process table. None
// depends on the machine's speed: they wait for the processes to write their ids, for
// compacteval to exit and for the processes to be gone, within the test's own deadline.

// hangScript is a cmd: extractor that never answers: it starts a child in its process
// group and one in a session of its own (which no process-group kill reaches), writes the
// three ids and sleeps.
const hangScript = `setsid sleep 1001 >/dev/null 2>&1 & echo $! >detached.pid
sleep 1002 & echo $! >child.pid
echo $$ >pid
exec sleep 1003
`

var hangPIDs = []string{"pid", "child.pid", "detached.pid"}

// startCompacteval starts compacteval with args in dir, with TMPDIR set to tmp and env
// added, and returns it with its stderr.
func startCompacteval(t *testing.T, dir, tmp string, env []string, args ...string) (*exec.Cmd, *strings.Builder) {
	t.Helper()
	bin, err := exec.LookPath("compacteval")
	if err != nil {
		t.Fatalf("compacteval is not on PATH (testscript.Main puts it there): %v", err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "TMPDIR="+tmp, "COMPACTEVAL_PROGRESS_EVERY=0"), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, &stderr
}

func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

func files(dir string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = filepath.Join(dir, n)
	}
	return out
}

// TestSignalStopsRun: SIGINT or SIGTERM while run waits for an extractor ends run with a
// message naming the extractor and the signal, the shell's exit code (128+N), every
// process the extractor started gone (the detached one too) and no temporary file left.
func TestSignalStopsRun(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("SKIP: the detached process is caught by a child subreaper, which is Linux only")
	}
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
		name string
	}{
		{syscall.SIGINT, 130, "interrupt"},
		{syscall.SIGTERM, 143, "terminated"},
	} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			dir, tmp := t.TempDir(), t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "hang.sh"), []byte(hangScript), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd, stderr := startCompacteval(t, dir, tmp, nil, "run", "-extractor", "cmd:sh hang.sh", "-timeout", "10m", "-drift-n", "1", "-out", "out")
			pids := proctest.ReadPIDs(t, files(dir, hangPIDs)...)
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			if got := exitCode(cmd.Wait()); got != tc.code {
				t.Errorf("compacteval run on %v exited %d, want %d", tc.sig, got, tc.code)
			}
			want := "compacteval run: extractor cmd:sh hang.sh: command sh hang.sh: stopped before it answered: " + tc.name + " signal received\n"
			if got := stderr.String(); got != want {
				t.Errorf("compacteval run on %v: stderr =\n%s\nwant\n%s", tc.sig, got, want)
			}
			proctest.WaitGone(t, pids...)
			if left, _ := os.ReadDir(tmp); len(left) > 0 {
				t.Errorf("compacteval run on %v left %s in TMPDIR", tc.sig, left[0].Name())
			}
			if _, err := os.Stat(filepath.Join(dir, "out")); !os.IsNotExist(err) {
				t.Errorf("compacteval run on %v wrote -out (stat: %v)", tc.sig, err)
			}
		})
	}
}

// TestSignalStopsExtractOnStdin: SIGINT while extract waits for its response on stdin
// (a terminal, here a pipe nobody writes to) ends it with exit 130 and kills its extractor.
// The extractor writes its id once it has answered extract's first request, so the signal
// comes when extract has gone on to read stdin.
func TestSignalStopsExtractOnStdin(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("SKIP: Linux only, as the other process-table tests")
	}
	dir, tmp := t.TempDir(), t.TempDir()
	script := `IFS= read -r l; id=${l#'{"id":'}; id=${id%%,*}; printf '{"id":%s,"summary":null}\n' "$id"
echo $$ >pid
exec sleep 1005
`
	if err := os.WriteFile(filepath.Join(dir, "probe.sh"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	bin, err := exec.LookPath("compacteval")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "extract", "-extractor", "cmd:sh probe.sh")
	cmd.Dir, cmd.Stdin = dir, pr
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pr.Close()
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	pids := proctest.ReadPIDs(t, filepath.Join(dir, "pid"))
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if got := exitCode(cmd.Wait()); got != 130 {
		t.Errorf("compacteval extract on SIGINT exited %d, want 130; stderr:\n%s", got, stderr.String())
	}
	if want := "compacteval extract: read response: interrupt signal received\n"; stderr.String() != want {
		t.Errorf("compacteval extract on SIGINT: stderr =\n%s\nwant\n%s", stderr.String(), want)
	}
	proctest.WaitGone(t, pids...)
}

// needCgroup skips the test where compacteval cannot put its processes in a cgroup of its
// own: there a SIGKILLed compacteval takes only the processes it started itself with it.
func needCgroup(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("SKIP: compacteval's cgroup is Linux only")
	}
	if err := reap.CgroupUsable(); err != nil {
		t.Skipf("SKIP: compacteval cannot make a cgroup here (%v): after a SIGKILL only the processes it started itself die with it (docs/extractors.md)", err)
	}
}

// TestKilledRunLeavesNoProcess: compacteval killed with SIGKILL while an extractor holds it
// takes every process of the extractor with it: the extractor (parent-death signal), the
// child in its group and the detached one (the cgroup, killed by its guard); the cgroup
// goes too.
func TestKilledRunLeavesNoProcess(t *testing.T) {
	needCgroup(t)
	dir, tmp := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "hang.sh"), []byte(hangScript), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd, _ := startCompacteval(t, dir, tmp, nil, "run", "-extractor", "cmd:sh hang.sh", "-timeout", "10m", "-drift-n", "1", "-out", "out")
	pids := proctest.ReadPIDs(t, files(dir, hangPIDs)...)
	cgroups := ownCgroups(t, cmd.Process.Pid)
	if len(cgroups) != 1 {
		t.Errorf("compacteval %d made cgroups %v, want one", cmd.Process.Pid, cgroups)
	}
	cmd.Process.Kill()
	cmd.Wait()
	proctest.WaitGone(t, pids...)
	waitNoFiles(t, cgroups...)
}

// TestKilledRunParentDeath: without the cgroup (COMPACTEVAL_CGROUP=off) the process
// compacteval started itself (the extractor's sh -c) still dies with it (parent-death
// signal); what that process started may survive it, and the test kills those.
func TestKilledRunParentDeath(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("SKIP: the parent-death signal is Linux only")
	}
	dir, tmp := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "hang.sh"), []byte(hangScript), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd, _ := startCompacteval(t, dir, tmp, []string{reap.EnvCgroup + "=off"}, "run", "-extractor", "cmd:sh hang.sh", "-timeout", "10m", "-drift-n", "1", "-out", "out")
	pids := proctest.ReadPIDs(t, files(dir, hangPIDs)...)
	defer func() {
		for _, p := range pids {
			syscall.Kill(p, syscall.SIGKILL)
		}
	}()
	if cg := ownCgroups(t, cmd.Process.Pid); len(cg) > 0 {
		t.Errorf("compacteval made cgroups %v with %s=off", cg, reap.EnvCgroup)
	}
	direct := proctest.Children(cmd.Process.Pid)
	if len(direct) != 1 {
		t.Fatalf("compacteval has children %v, want the extractor's sh -c alone", direct)
	}
	pids = append(pids, direct...)
	cmd.Process.Kill()
	cmd.Wait()
	proctest.WaitGone(t, direct...)
}

// TestKilledReviewBuild: review -base REV killed with SIGKILL while it builds the revision
// takes the build with it (a stand-in go that starts a child, as go build starts the
// compiler), and leaves its worktree and temporary folder, which the next review removes.
func TestKilledReviewBuild(t *testing.T) {
	needCgroup(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: git is not on PATH")
	}
	repo, tmp, bin := t.TempDir(), t.TempDir(), t.TempDir()
	// The stand-in for go: while $STATE/hang exists it starts a child and waits,
	// otherwise it fails at once.
	fakeGo := `#!/bin/sh
echo $$ >"$STATE/go.pid"
[ -e "$STATE/hang" ] || { echo "stand-in go: no build" >&2; exit 1; }
sleep 1004 & echo $! >"$STATE/compile.pid"
wait
`
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(fakeGo), 0o755); err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	if err := os.WriteFile(filepath.Join(state, "hang"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	git("init", "--quiet")
	if err := os.MkdirAll(filepath.Join(repo, "cmd", "compacteval-pipe"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "cmd", "compacteval-pipe", "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", ".")
	git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "first")
	env := []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "STATE=" + state}
	args := []string{"review", "-base", "HEAD", "-head", "HEAD", "-timeout", "10m"}

	cmd, _ := startCompacteval(t, repo, tmp, env, args...)
	pids := proctest.ReadPIDs(t, filepath.Join(state, "go.pid"), filepath.Join(state, "compile.pid"))
	cmd.Process.Kill()
	cmd.Wait()
	proctest.WaitGone(t, pids...)
	worktrees := func() int { return strings.Count(git("worktree", "list", "--porcelain"), "worktree ") }
	if n := worktrees(); n != 2 {
		t.Errorf("after the killed review git worktree list has %d worktrees, want 2 (the killed review's is left to the next)", n)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "compacteval-review-git-*")); len(left) != 1 {
		t.Errorf("after the killed review TMPDIR holds %v, want its one folder", left)
	}

	os.Remove(filepath.Join(state, "hang"))
	cmd, stderr := startCompacteval(t, repo, tmp, env, args...)
	if got := exitCode(cmd.Wait()); got != exitError {
		t.Errorf("the next review (whose build fails) exited %d, want %d; stderr:\n%s", got, exitError, stderr)
	}
	if !strings.Contains(stderr.String(), "stand-in go: no build") {
		t.Errorf("the next review's stderr does not show the build's failure:\n%s", stderr)
	}
	if n := worktrees(); n != 1 {
		t.Errorf("after the next review git worktree list has %d worktrees, want 1:\n%s", n, git("worktree", "list"))
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "compacteval-review-git-*")); len(left) != 0 {
		t.Errorf("after the next review TMPDIR still holds %v", left)
	}
}

// ownCgroups returns the cgroups compacteval pid made (reap names them after its id),
// once it made one or exited: the extractor's ids were written, so its first process was
// started.
func ownCgroups(t *testing.T, pid int) []string {
	t.Helper()
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cgroup")
	if err != nil {
		t.Fatal(err)
	}
	var self string
	for _, line := range strings.Split(string(data), "\n") {
		if p, ok := strings.CutPrefix(line, "0::"); ok {
			self = p
		}
	}
	var out []string
	for _, mount := range []string{"/sys/fs/cgroup", "/sys/fs/cgroup/unified"} {
		m, _ := filepath.Glob(filepath.Join(mount, self, "compacteval-"+strconv.Itoa(pid)+"-*"))
		out = append(out, m...)
	}
	return out
}

// waitNoFiles waits until none of paths exists, within the test's deadline.
func waitNoFiles(t *testing.T, paths ...string) {
	t.Helper()
	end := time.Now().Add(10 * time.Minute)
	if dl, ok := t.Deadline(); ok {
		end = dl.Add(-5 * time.Second)
	}
	for _, p := range paths {
		for {
			if _, err := os.Stat(p); os.IsNotExist(err) {
				break
			}
			if time.Now().After(end) {
				t.Fatalf("%s is still there", p)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}
