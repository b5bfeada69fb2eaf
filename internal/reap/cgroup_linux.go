package reap

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// cgroup is the command's cgroup v2 group: every process Start starts is in it, with what
// those processes start, detached or not.
type cgroup struct {
	dir   string
	fd    *os.File // the folder, for clone3's CLONE_INTO_CGROUP (SysProcAttr.CgroupFD)
	guard *os.File // the write end of the guard's stdin, open for the life of the command
}

// cgroupPrefix begins the name of a command's cgroup, followed by its process id.
const cgroupPrefix = "compacteval-"

// guardScript kills the cgroup $1 and removes it when its stdin ends: when the command
// exits or is killed, however, the kernel closes the pipe's write end. It ignores the
// signals a terminal sends (it is in a process group of its own too), and kills the
// processes one by one where the kernel has no cgroup.kill (before Linux 5.14).
const guardScript = `trap '' HUP INT TERM QUIT PIPE
read -r _
n=0
while [ -d "$1" ] && [ $n -lt 60 ]; do
	echo 1 2>/dev/null >"$1/cgroup.kill" || for p in $(cat "$1/cgroup.procs"); do kill -9 "$p"; done
	rmdir "$1" 2>/dev/null && exit 0
	n=$((n+1))
	sleep 1
done
`

// runCgroup returns the command's cgroup, making it (and its guard) on the first call after
// Init; nil when there is none.
func runCgroup() *cgroup {
	st.mu.Lock()
	defer st.mu.Unlock()
	if !st.wantCgroup || st.tried {
		return st.cg
	}
	st.tried = true
	cg, err := newCgroup()
	if err != nil {
		st.noCgroup = err.Error()
		return nil
	}
	st.cg = cg
	return cg
}

// CgroupUsable returns nil if a command could put its processes in a cgroup of its own
// here, and otherwise why not; it makes a cgroup, starts a process in it and removes it.
func CgroupUsable() error {
	parent, err := ownCgroupDir()
	if err != nil {
		return err
	}
	dir, fd, err := makeCgroup(parent)
	if err != nil {
		return err
	}
	fd.Close()
	return unix.Rmdir(dir)
}

// newCgroup makes the command's cgroup beside the cgroups of the command's earlier runs
// (removing those whose command is gone) and starts its guard.
func newCgroup() (*cgroup, error) {
	parent, err := ownCgroupDir()
	if err != nil {
		return nil, err
	}
	pruneStaleCgroups(parent)
	dir, fd, err := makeCgroup(parent)
	if err != nil {
		return nil, err
	}
	cg := &cgroup{dir: dir, fd: fd}
	sh, err := exec.LookPath("sh")
	if err != nil {
		cg.killAll()
		return nil, fmt.Errorf("no guard for cgroup %s: %w", dir, err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		cg.killAll()
		return nil, err
	}
	guard := exec.Command(sh, "-c", guardScript, "compacteval-guard", dir)
	guard.Stdin = r
	guard.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = guard.Start()
	r.Close()
	if err != nil {
		w.Close()
		cg.killAll()
		return nil, fmt.Errorf("start the guard of cgroup %s: %w", dir, err)
	}
	go guard.Wait() // it exits when the command does; Wait reaps it if it dies before
	cg.guard = w
	return cg, nil
}

// ownCgroupDir returns the folder of the calling process's cgroup v2 group.
func ownCgroupDir() (string, error) {
	mount, err := cgroup2Mount()
	if err != nil {
		return "", err
	}
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if p, ok := strings.CutPrefix(line, "0::"); ok {
			return filepath.Join(mount, p), nil
		}
	}
	return "", errors.New("no cgroup v2 group in /proc/self/cgroup")
}

// cgroup2Mount returns where the cgroup v2 file system is mounted: /sys/fs/cgroup on a
// unified system, /sys/fs/cgroup/unified on a hybrid one.
func cgroup2Mount() (string, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw"
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		if pf, qf := strings.Fields(pre), strings.Fields(post); ok && len(pf) >= 5 && len(qf) >= 1 && qf[0] == "cgroup2" {
			return pf[4], nil
		}
	}
	return "", errors.New("no cgroup v2 file system is mounted")
}

// makeCgroup makes a cgroup in parent and checks that a process can be started in it.
func makeCgroup(parent string) (string, *os.File, error) {
	dir, err := os.MkdirTemp(parent, cgroupPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return "", nil, fmt.Errorf("make a cgroup: %w", err)
	}
	fd, err := os.Open(dir)
	if err != nil {
		unix.Rmdir(dir)
		return "", nil, err
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		fd.Close()
		unix.Rmdir(dir)
		return "", nil, fmt.Errorf("no sh to start in cgroup %s: %w", dir, err)
	}
	probe := exec.Command(sh, "-c", ":")
	probe.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: int(fd.Fd())}
	if err := probe.Run(); err != nil {
		fd.Close()
		unix.Rmdir(dir)
		return "", nil, fmt.Errorf("start a process in cgroup %s: %w", dir, err)
	}
	return dir, fd, nil
}

// pruneStaleCgroups kills and removes the cgroups in parent of commands that are gone (a
// guard that was killed too could not).
func pruneStaleCgroups(parent string) {
	dirs, _ := filepath.Glob(filepath.Join(parent, cgroupPrefix+"*-*"))
	for _, d := range dirs {
		f := strings.Split(strings.TrimPrefix(filepath.Base(d), cgroupPrefix), "-")
		pid, err := strconv.Atoi(f[0])
		if err != nil || pid <= 0 || !errors.Is(unix.Kill(pid, 0), unix.ESRCH) {
			continue
		}
		(&cgroup{dir: d}).killAll()
	}
}

// cgroupGone bounds the wait for a killed cgroup's processes to exit, so that it can be
// removed.
const cgroupGone = 10 * time.Second

// killAll kills every process of the cgroup, removes it and returns the number killed.
func (c *cgroup) killAll() int {
	n := len(c.procs())
	for start := time.Now(); time.Since(start) < cgroupGone; time.Sleep(10 * time.Millisecond) {
		if os.WriteFile(filepath.Join(c.dir, "cgroup.kill"), []byte("1"), 0) != nil {
			for _, pid := range c.procs() {
				unix.Kill(pid, unix.SIGKILL)
			}
		}
		if err := unix.Rmdir(c.dir); err == nil || errors.Is(err, unix.ENOENT) {
			break
		}
	}
	if c.fd != nil {
		c.fd.Close()
	}
	return n
}

// procs returns the ids of the cgroup's processes.
func (c *cgroup) procs() []int {
	data, _ := os.ReadFile(filepath.Join(c.dir, "cgroup.procs"))
	var out []int
	for _, f := range strings.Fields(string(data)) {
		if pid, err := strconv.Atoi(f); err == nil {
			out = append(out, pid)
		}
	}
	return out
}
