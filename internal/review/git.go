package review

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/internal/reap"
)

// BuildTimeout bounds the build of compacteval at a revision (a cold module cache downloads
// and compiles everything).
const BuildTimeout = 10 * time.Minute

// The review builds, at a revision, the small command that answers the protocol
// (pipeCommand, compact and the protocol only) where the revision has it, and the whole
// tool, run as compacteval pipe, where it does not.
const (
	pipeCommand = "cmd/compacteval-pipe"
	toolCommand = "cmd/compacteval"
)

// revBuilds builds compacteval at git revisions of one repository, once per commit, each
// in a worktree that is removed as soon as the binary is built.
type revBuilds struct {
	// ctx stops a build: its go build is killed and its worktree removed.
	ctx  context.Context
	dir  string
	log  io.Writer
	tmp  string
	bins map[string][]string // commit -> the command line of its pipe
	opt  extractor.OpenOptions
	// progress, when set, is told each build's start and end (OpenOptions.Progress).
	progress func(track, stage string, done, total int)
}

// revision is the commit a version was built at.
type revision struct {
	commit string
	// evalTree is the git tree of the commit's eval/ folder; "" when it has none.
	evalTree string
}

// resolve returns the commit that rev names in the git repository around dir ("" is "."),
// the repository's top folder and the tree of the commit's eval/.
func resolve(dir, rev string) (rv revision, top string, err error) {
	if strings.HasPrefix(rev, "-") {
		return rv, "", fmt.Errorf("revision %q: a revision does not begin with -", rev)
	}
	if dir == "" {
		dir = "."
	}
	if top, err = git(dir, "rev-parse", "--show-toplevel"); err != nil {
		return rv, "", fmt.Errorf("revision %s: not in a git repository: %w", rev, err)
	}
	if rv.commit, err = git(top, "rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		return rv, "", fmt.Errorf("revision %s: no such commit", rev)
	}
	// "040000 tree HASH\teval"; nothing for a commit without eval/.
	out, err := git(top, "ls-tree", rv.commit, "--", "eval")
	if err != nil {
		return rv, "", fmt.Errorf("revision %s: %w", rev, err)
	}
	if f := strings.Fields(out); len(f) == 4 && f[1] == "tree" && f[3] == "eval" {
		rv.evalTree = f[2]
	}
	return rv, top, nil
}

// build returns the command line of the protocol server built at rev (compacteval-pipe,
// or compacteval pipe for a revision without it), a description of the revision and its
// commit.
func (r *revBuilds) build(rev string) (argv []string, desc string, rv revision, err error) {
	rv, top, err := resolve(r.dir, rev)
	if err != nil {
		return nil, "", rv, err
	}
	commit := rv.commit
	desc = fmt.Sprintf("git %s (%.12s)", rev, commit)
	if argv, ok := r.bins[commit]; ok {
		return argv, desc, rv, nil
	}
	pkg := commandAt(top, commit)
	if r.tmp == "" {
		pruneStale(top)
		if r.tmp, err = os.MkdirTemp("", tmpPrefix); err != nil {
			return nil, "", rv, err
		}
		if err := os.WriteFile(filepath.Join(r.tmp, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
			os.RemoveAll(r.tmp)
			r.tmp = ""
			return nil, "", rv, err
		}
	}
	wt := filepath.Join(r.tmp, "worktree-"+commit[:12])
	bin := filepath.Join(r.tmp, path.Base(pkg)+"-"+commit[:12])
	if r.log != nil {
		fmt.Fprintf(r.log, "review: building %s at %s\n", path.Base(pkg), desc)
	}
	if r.progress != nil {
		r.progress("build "+rev, "build", 0, 1)
		defer r.progress("build "+rev, "build", 1, 1)
	}
	if _, err := git(top, "worktree", "add", "--detach", wt, commit); err != nil {
		return nil, "", rv, fmt.Errorf("revision %s: %w", rev, err)
	}
	// When r.ctx is done (a signal) the build is killed, and the worktree goes all the same
	// (and with it its registration). If the review itself is killed (SIGKILL), the build
	// dies with it (reap.Start) and the next review prunes the worktree (pruneStale).
	ctx, cancel := context.WithTimeout(r.ctx, BuildTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./"+pkg)
	cmd.Dir = wt
	ownGroup(cmd)
	cmd.Cancel = func() error { return killGroup(cmd.Process.Pid) }
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	berr := reap.Start(cmd)
	if berr == nil {
		berr = cmd.Wait()
	}
	_, rerr := git(top, "worktree", "remove", "--force", wt)
	if r.ctx.Err() != nil {
		return nil, "", rv, fmt.Errorf("revision %s: go build ./%s stopped: %w", rev, pkg, context.Cause(r.ctx))
	}
	if ctx.Err() != nil {
		return nil, "", rv, fmt.Errorf("revision %s: go build ./%s took more than %s and was stopped", rev, pkg, BuildTimeout)
	}
	if berr != nil {
		return nil, "", rv, fmt.Errorf("revision %s: go build ./%s: %v\n%s", rev, pkg, berr, bytes.TrimSpace(out.Bytes()))
	}
	if rerr != nil {
		return nil, "", rv, fmt.Errorf("revision %s: %w", rev, rerr)
	}
	argv = []string{bin}
	if pkg == toolCommand {
		argv = append(argv, "pipe")
	}
	r.bins[commit] = argv
	return argv, desc, rv, nil
}

// commandAt returns the command to build at commit: pipeCommand where the commit has it,
// else toolCommand.
func commandAt(top, commit string) string {
	if out, err := git(top, "ls-tree", "--name-only", commit, "--", pipeCommand+"/main.go"); err == nil && out != "" {
		return pipeCommand
	}
	return toolCommand
}

// tmpPrefix begins the name of a review's temporary folder (worktrees and binaries), and
// ownerFile, in it, holds the id of the process that made it.
const (
	tmpPrefix = "compacteval-review-git-"
	ownerFile = "owner.pid"
)

// pruneStale removes what an earlier review left when it was killed before it could clean
// up (SIGKILL): its temporary folders, whose owner process is gone, and then, with git
// worktree prune, the repository's registrations of the worktrees that were in them. A
// folder without an owner file, or whose owner still runs, is left alone.
func pruneStale(top string) {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), tmpPrefix+"*"))
	for _, d := range dirs {
		data, err := os.ReadFile(filepath.Join(d, ownerFile))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
		if err != nil || pid <= 0 || alive(pid) {
			continue
		}
		os.RemoveAll(d)
	}
	git(top, "worktree", "prune")
}

// close removes the binaries.
func (r *revBuilds) close() error {
	if r.tmp == "" {
		return nil
	}
	err := os.RemoveAll(r.tmp)
	r.tmp = ""
	return err
}

// git runs git in dir and returns its trimmed output. Git dies with the review (reap.Start).
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := reap.Start(cmd)
	if err == nil {
		err = cmd.Wait()
	}
	out := stdout.Bytes()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && stderr.Len() > 0 {
			return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), strings.TrimSpace(stderr.String()))
		}
		return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}
