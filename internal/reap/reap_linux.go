package reap

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/compacteval/compacteval/internal/proccpu"
)

// Init makes the calling process a child subreaper (an orphan among its descendants becomes
// its child instead of init's) and lets Start put processes in a cgroup of its own unless
// $COMPACTEVAL_CGROUP is "off". The cgroup is created by the first Start, so a command that
// starts no process makes none.
func Init() Status {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.subreaper = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == nil
	st.wantCgroup = os.Getenv(EnvCgroup) != "off"
	if !st.wantCgroup {
		st.noCgroup = EnvCgroup + "=off"
	}
	return st.status()
}

// st is the command's state: what Init set up and the cgroup the first Start made.
var st state

type state struct {
	mu         sync.Mutex
	subreaper  bool
	wantCgroup bool
	tried      bool    // the cgroup was tried (made or refused)
	cg         *cgroup // nil without one
	noCgroup   string  // why there is none
}

func (s *state) status() Status {
	out := Status{Subreaper: s.subreaper, NoCgroup: s.noCgroup}
	if s.cg != nil {
		out.Cgroup = s.cg.dir
	}
	return out
}

// Start starts cmd as exec.Cmd.Start does, with a parent-death signal (SIGKILL) and, after
// Init, in the command's cgroup. cmd.SysProcAttr, when set, is kept (a process group of its
// own, say) and completed.
func Start(cmd *exec.Cmd) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	if cg := runCgroup(); cg != nil {
		cmd.SysProcAttr.UseCgroupFD = true
		cmd.SysProcAttr.CgroupFD = int(cg.fd.Fd())
	}
	return startLocked(cmd)
}

// starts is served by one goroutine locked to its thread for the life of the process: a
// parent-death signal is sent when the thread that forked the child exits, and that thread
// never does (a goroutine that returns while locked ends its thread, so it never returns).
var (
	starts    = make(chan startRequest)
	startOnce sync.Once
)

type startRequest struct {
	cmd  *exec.Cmd
	done chan error
}

func startLocked(cmd *exec.Cmd) error {
	startOnce.Do(func() {
		go func() {
			runtime.LockOSThread()
			for r := range starts {
				r.done <- r.cmd.Start()
			}
		}()
	})
	done := make(chan error, 1)
	starts <- startRequest{cmd, done}
	return <-done
}

// maxRounds bounds All's rounds: each round kills the children there are, and their own
// children become children in turn, one generation a round.
const maxRounds = 1000

// All kills what is left of the command's processes and returns how many it killed: every
// process of its cgroup (which is then removed), then every child, round after round, until
// none is left (after Init these are every descendant still running). Call it when nothing
// else waits for a child (the command's own exec.Cmd were waited for).
func All() int {
	st.mu.Lock()
	cg := st.cg
	st.mu.Unlock()
	n := 0
	if cg != nil {
		n += cg.killAll()
	}
	for range maxRounds {
		kids := Children()
		if len(kids) == 0 {
			return n
		}
		for _, pid := range kids {
			if unix.Kill(pid, unix.SIGKILL) == nil {
				n++
			}
		}
		for _, pid := range kids {
			var ws unix.WaitStatus
			for {
				_, err := unix.Wait4(pid, &ws, 0, nil)
				if !errors.Is(err, unix.EINTR) {
					break
				}
			}
		}
	}
	return n
}

// Children returns the ids of the calling process's children, zombies included, from
// /proc.
func Children() []int {
	self := os.Getpid()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid, ok := proccpu.Parent(pid); ok && ppid == self {
			out = append(out, pid)
		}
	}
	return out
}
