package proccpu

import (
	"bytes"
	"os"
	"strconv"
	"time"
)

// TreeCPU returns the CPU time that pid and its living descendants have used, summed over
// their threads from /proc/PID/task/TID/schedstat (nanoseconds the thread ran: the time
// other processes took on the same cores is not in it). It is false when pid is gone or
// the kernel keeps no schedstat.
func TreeCPU(pid int) (time.Duration, bool) {
	total, ok := processCPU(pid)
	if !ok {
		return 0, false
	}
	for _, d := range descendants(pid) {
		if cpu, ok := processCPU(d); ok {
			total += cpu
		}
	}
	return total, true
}

// processCPU sums the run time of pid's threads.
func processCPU(pid int) (time.Duration, bool) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0, false
	}
	var total time.Duration
	read := false
	for _, e := range ents {
		b, err := os.ReadFile(dir + "/" + e.Name() + "/schedstat")
		if err != nil {
			continue // a thread that ended meanwhile
		}
		f := bytes.Fields(b)
		if len(f) == 0 {
			continue
		}
		ns, err := strconv.ParseInt(string(f[0]), 10, 64)
		if err != nil {
			continue
		}
		total += time.Duration(ns)
		read = true
	}
	return total, read
}

// descendants returns the living processes below pid, from the parent ids in /proc.
func descendants(pid int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp, ok := Parent(p); ok {
			children[pp] = append(children[pp], p)
		}
	}
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	return out
}

// SelfCPU returns the CPU time this process has used, its threads' run time.
func SelfCPU() (time.Duration, bool) { return processCPU(os.Getpid()) }

// Parent reads the parent id of process pid from /proc/PID/stat (Linux only): the fourth
// field, counted after the command name, which is in parentheses and may hold spaces and
// parentheses itself. It reports false when the process is gone or the line does not read.
func Parent(pid int) (int, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(string(f[1]))
	return ppid, err == nil
}
