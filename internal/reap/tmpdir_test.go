package reap

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// TestTempDirPrunesTheDead: a command killed with SIGKILL leaves its temporary folder
// (a bundled module: the user's code); the next TempDir of the prefix removes it once its
// owner is gone, and leaves the folders of a live owner and those without an owner file.
func TestTempDirPrunesTheDead(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	const prefix = "compacteval-test-"
	dead := exec.Command(os.Args[0], "-test.run=^$")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	mk := func(name, ownerText string) string {
		d := filepath.Join(os.TempDir(), prefix+name)
		os.Mkdir(d, 0o755)
		os.WriteFile(filepath.Join(d, "module.mjs"), []byte("export {}"), 0o644)
		if ownerText != "" {
			os.WriteFile(filepath.Join(d, OwnerFile), []byte(ownerText), 0o644)
		}
		return d
	}
	gone := mk("gone", owner(dead.Process.Pid))
	live := mk("live", owner(os.Getpid()))
	noOwner := mk("noowner", "")
	dir, err := TempDir(prefix)
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]bool{gone: false, live: true, noOwner: true, dir: true} {
		if _, err := os.Stat(path); (err == nil) != want {
			t.Errorf("after TempDir, %s exists = %v, want %v", filepath.Base(path), err == nil, want)
		}
	}
	data, _ := os.ReadFile(filepath.Join(dir, OwnerFile))
	if got := string(data); got != owner(os.Getpid()) || got[:len(strconv.Itoa(os.Getpid()))] != strconv.Itoa(os.Getpid()) {
		t.Errorf("owner file %q, want this process", got)
	}
}

// TestOwnerReused: an owner file whose id now belongs to a process started at another time
// (the id was reused) is gone.
func TestOwnerReused(t *testing.T) {
	start, ok := startTime(os.Getpid())
	if !ok {
		t.Skip("no start times here")
	}
	if ownerGone(strconv.Itoa(os.Getpid()) + " " + start) {
		t.Errorf("this process is gone, by its own owner text")
	}
	if !ownerGone(strconv.Itoa(os.Getpid()) + " " + start + "0") {
		t.Errorf("an owner with this id and another start time is not gone")
	}
}
