package reap

import (
	"os/exec"
	"runtime"
	"syscall"
	"testing"

	"github.com/compacteval/compacteval/internal/testhelp/proctest"
)

// The main goroutine keeps the process's first thread, which the runtime never ends: the
// test's locked goroutine runs on another thread, which ends when it returns.
func init() { runtime.LockOSThread() }

// TestStartOutlivesCallerThread: the parent-death signal fires when the thread that forked
// the child exits. A goroutine locked to its thread that returns ends that thread: a child
// it started itself with Pdeathsig dies (the control), one it started through Start lives,
// because Start forks from a thread that lives as long as the process.
func TestStartOutlivesCallerThread(t *testing.T) {
	type started struct {
		control, viaStart *exec.Cmd
		err               error
	}
	ch := make(chan started)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with this goroutine
		control := exec.Command("sleep", "1000")
		control.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		if err := control.Start(); err != nil {
			ch <- started{err: err}
			return
		}
		viaStart := exec.Command("sleep", "1001")
		err := Start(viaStart)
		ch <- started{control, viaStart, err}
	}()
	s := <-ch
	if s.err != nil {
		t.Fatal(s.err)
	}
	defer func() { s.viaStart.Process.Kill(); s.viaStart.Wait() }()
	waited := make(chan struct{})
	go func() { s.control.Wait(); close(waited) }()
	<-waited // the locked thread exited and its child got SIGKILL
	if !proctest.Alive(s.viaStart.Process.Pid) {
		t.Errorf("the process Start started died with the thread of the goroutine that called Start")
	}
	if s.viaStart.SysProcAttr.Pdeathsig != syscall.SIGKILL {
		t.Errorf("Start set Pdeathsig %v, want SIGKILL", s.viaStart.SysProcAttr.Pdeathsig)
	}
}
