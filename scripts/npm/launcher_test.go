//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLauncherSignals runs the npm launcher (npm/compacteval/bin/compacteval.js) over a
// stand-in binary, a shell script, as npm would lay them out: a signal sent to the launcher
// reaches the binary (SIGTERM to the launcher left the binary running under PID 1), the
// launcher exits with the binary's status, and dies of the signal the binary died of. It
// needs node and sh.
func TestLauncherSignals(t *testing.T) {
	for _, tool := range []string{"node", "sh"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH", tool)
		}
	}
	platform := "cli-" + nodeNames[runtime.GOOS] + "-" + nodeNames[runtime.GOARCH]
	if nodeNames[runtime.GOOS] == "" || nodeNames[runtime.GOARCH] == "" {
		t.Skipf("%s/%s has no npm package", runtime.GOOS, runtime.GOARCH)
	}
	root := t.TempDir()
	launcher := filepath.Join(root, "node_modules", "compacteval", "bin", "compacteval.js")
	binary := filepath.Join(root, "node_modules", "@compacteval", platform, "bin", "compacteval")
	src, err := os.ReadFile(filepath.Join("..", "..", launcherDir, "bin", "compacteval.js"))
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := os.ReadFile(filepath.Join("..", "..", launcherDir, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	for path, data := range map[string][]byte{
		launcher: src, filepath.Join(filepath.Dir(launcher), "..", "package.json"): pkg,
		filepath.Join(filepath.Dir(binary), "..", "package.json"): []byte(`{"name": "@compacteval/` + platform + `", "version": "0.0.0-dev"}` + "\n"),
		// The stand-in: writes its pid, then on TERM, HUP or INT writes the signal's name
		// and exits 3; "die" makes it wait for a signal with no trap (it dies of it),
		// "exit N" exits N at once.
		binary: []byte(`#!/bin/sh
case "$1" in
exit) exit "$2" ;;
die) echo $$ > "$2"; while :; do sleep 0.05; done ;;
esac
for sig in TERM HUP INT; do trap "echo $sig > '$2.got'; exit 3" $sig; done
echo $$ > "$2"
while :; do sleep 0.05; done
`),
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o755); err != nil {
			t.Fatal(err)
		}
	}

	// start runs the launcher with args (stdio not a terminal) and waits until the
	// stand-in has written its pid to pidFile.
	start := func(t *testing.T, args ...string) (*exec.Cmd, int) {
		t.Helper()
		cmd := exec.Command("node", append([]string{launcher}, args...)...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		pidFile := args[1]
		for i := 0; ; i++ {
			data, err := os.ReadFile(pidFile)
			if pid, perr := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && perr == nil {
				return cmd, pid
			}
			if i > 2000 {
				cmd.Process.Kill()
				t.Fatalf("the stand-in binary did not start")
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	alive := func(pid int) bool { return syscall.Kill(pid, 0) == nil }

	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT} {
		t.Run("forward "+sig.String(), func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "pid")
			cmd, pid := start(t, "trap", pidFile)
			defer syscall.Kill(pid, syscall.SIGKILL)
			cmd.Process.Signal(sig)
			err := cmd.Wait()
			if code := cmd.ProcessState.ExitCode(); code != 3 {
				t.Errorf("the launcher, sent %v, exited %d (%v); want 3, the binary's status", sig, code, err)
			}
			got, _ := os.ReadFile(pidFile + ".got")
			if want := strings.TrimPrefix(sigName(sig), "SIG"); strings.TrimSpace(string(got)) != want {
				t.Errorf("the binary got %q, want %s", got, want)
			}
			if alive(pid) {
				t.Errorf("the binary (pid %d) outlived the launcher", pid)
			}
		})
	}

	t.Run("status", func(t *testing.T) {
		cmd := exec.Command("node", launcher, "exit", "7")
		cmd.Run()
		if code := cmd.ProcessState.ExitCode(); code != 7 {
			t.Errorf("the launcher exited %d, want the binary's 7", code)
		}
	})

	t.Run("signal death", func(t *testing.T) {
		pidFile := filepath.Join(t.TempDir(), "pid")
		cmd, pid := start(t, "die", pidFile)
		defer syscall.Kill(pid, syscall.SIGKILL)
		syscall.Kill(pid, syscall.SIGTERM) // the binary itself, not the launcher
		cmd.Wait()
		ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
		if !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
			t.Errorf("the launcher ended with %v, want death by SIGTERM as the binary's", cmd.ProcessState)
		}
	})
}

func sigName(s syscall.Signal) string {
	return map[syscall.Signal]string{syscall.SIGTERM: "SIGTERM", syscall.SIGHUP: "SIGHUP", syscall.SIGINT: "SIGINT"}[s]
}
