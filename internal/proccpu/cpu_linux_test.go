package proccpu

import (
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// TestTreeCPU: a process whose child spins gains CPU time (the child's counts for its
// tree); a process that sleeps gains none to speak of.
func TestTreeCPU(t *testing.T) {
	if _, ok := SelfCPU(); !ok {
		t.Skip("no schedstat here")
	}
	spin := exec.Command("sh", "-c", "sh -c 'while :; do :; done' & wait")
	spin.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	sleep := exec.Command("sleep", "60")
	for _, c := range []*exec.Cmd{spin, sleep} {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	defer func() {
		syscall.Kill(-spin.Process.Pid, syscall.SIGKILL)
		sleep.Process.Kill()
		spin.Wait()
		sleep.Wait()
	}()
	// However loaded the machine, the spinner gets 50 ms of CPU in the end.
	var spun time.Duration
	for deadline := time.Now().Add(time.Minute); spun < 50*time.Millisecond && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		d, ok := TreeCPU(spin.Process.Pid)
		if !ok {
			t.Fatalf("TreeCPU(%d) not measured", spin.Process.Pid)
		}
		spun = d
	}
	if own, _ := processCPU(spin.Process.Pid); spun < 50*time.Millisecond || own > spun/2 {
		t.Errorf("TreeCPU(sh waiting for a spinner) = %v (sh's own %v), want 50ms or more, most of it the child's", spun, own)
	}
	if slept, ok := TreeCPU(sleep.Process.Pid); !ok || slept > spun/2 {
		t.Errorf("TreeCPU(sleep) = %v, %v; want far under the spinner's %v", slept, ok, spun)
	}
	if _, ok := TreeCPU(1 << 30); ok {
		t.Errorf("TreeCPU(no such process) is ok")
	}
}
