// Package reap ends every process a command started, however it was started and however
// the command ends.
//
// On Linux, three mechanisms work together:
//
//   - Start starts a process with a parent-death signal (SIGKILL): if the command dies,
//     even by SIGKILL, the processes it started itself die with it. The kernel sends that
//     signal when the thread that started the process exits, not the process, so Start
//     forks every process from one goroutine locked to its thread for the life of the
//     command: that thread never exits before the command does.
//   - After Init, the command is a child subreaper: a process an extractor starts in a
//     session of its own (setsid, Node's detached spawn), which a process-group kill does
//     not reach, is adopted by the command when its parent exits, and All kills it.
//   - After Init, where the cgroup v2 file system is writable (root, or a delegated
//     subtree), Start puts every process in a cgroup of the command's own, and a guard
//     process (sh) kills that cgroup when the command's end closes the pipe it reads:
//     what a process started, detached or not, ends with the command even when the
//     command is killed with SIGKILL. Where the cgroup is not available (a read-only
//     /sys/fs/cgroup, no cgroup v2, no sh, COMPACTEVAL_CGROUP=off), Init says why
//     (Status) and a SIGKILL of the command ends only the processes it started itself.
//
// Elsewhere Init and All do nothing and Start is exec.Cmd.Start: a process group is what
// ends an extractor's processes there.
package reap

// EnvCgroup is the environment variable that turns the cgroup off when it is "off".
const EnvCgroup = "COMPACTEVAL_CGROUP"

// Status says which mechanisms Init set up.
type Status struct {
	// Subreaper reports whether the command adopts its orphaned descendants.
	Subreaper bool
	// Cgroup is the folder of the command's cgroup, created by the first Start; "" when
	// there is none (NoCgroup says why).
	Cgroup string
	// NoCgroup says why there is no cgroup, once Start or CgroupUsable tried.
	NoCgroup string
}
