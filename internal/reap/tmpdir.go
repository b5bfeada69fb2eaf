package reap

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// OwnerFile, in a temporary folder of TempDir's, names the process that made it: its id
// and, where the system tells, its start time (so that a reused id is not taken for it).
const OwnerFile = "owner.pid"

// TempDir makes a temporary folder (os.MkdirTemp in os.TempDir) whose OwnerFile names this
// process, after removing the folders of the same prefix that a killed command left: those
// whose owner is gone. A folder without an owner file (another program's, or one being
// made) is left alone. The caller removes its folder when done, as with os.MkdirTemp.
func TempDir(prefix string) (string, error) {
	PruneTemp(prefix)
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, OwnerFile), []byte(owner(os.Getpid())), 0o644); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("mark %s as this process's: %w", dir, err)
	}
	return dir, nil
}

// PruneTemp removes the folders of os.TempDir named prefix* whose owner process is gone,
// and returns how many it removed.
func PruneTemp(prefix string) int {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), prefix+"*"))
	n := 0
	for _, d := range dirs {
		data, err := os.ReadFile(filepath.Join(d, OwnerFile))
		if err != nil || !ownerGone(strings.TrimSpace(string(data))) {
			continue
		}
		if os.RemoveAll(d) == nil {
			n++
		}
	}
	return n
}

// owner is the text of pid's owner file: "PID" or "PID START".
func owner(pid int) string {
	if start, ok := startTime(pid); ok {
		return strconv.Itoa(pid) + " " + start
	}
	return strconv.Itoa(pid)
}

// ownerGone reports whether the process an owner file names has ended: no process has its
// id, or the one that has was started at another time. An unreadable owner is not gone.
func ownerGone(text string) bool {
	f := strings.Fields(text)
	if len(f) == 0 || len(f) > 2 {
		return false
	}
	pid, err := strconv.Atoi(f[0])
	if err != nil || pid <= 0 {
		return false
	}
	if !alive(pid) {
		return true
	}
	if len(f) == 2 {
		start, ok := startTime(pid)
		return ok && start != f[1]
	}
	return false
}
