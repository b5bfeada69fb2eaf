package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/internal/testhelp/testref"
	"github.com/rogpeppe/go-internal/testscript"
)

// The scripts in testdata/script run compacteval as a user does, in a temporary folder
// outside this repository ($WORK), with the small corpora and extractors their archives
// hold, and compare whole outputs. go test ./cmd/compacteval -run TestScripts -update
// rewrites the expected outputs (read the diff before committing).

var update = flag.Bool("update", false, "rewrite the scripts' expected outputs")

var execLookPath = exec.LookPath

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"compacteval": mainExit,
	})
}

// seedModule is the module compacteval ports: the scripts copy it as a user's own.
var seedModule = filepath.Join(repoRoot, "..", "shared", "seed", "compaction.ts")

// looseLine is the seed's loose fallback; the changed copy of the module drops it.
const looseLine = "if (loose) return loose[1].trim() || undefined;"

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *update,
		Setup:         setupScript,
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "short":
				return testing.Short(), nil
			case "seed":
				return haveSeed()
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"mask":    mask,
			"head":    head,
			"exits":   exits,
			"noprocs": noprocs,
			// review_ab_script_test.go
			"fakemodel":   fakemodel,
			"seedvariant": seedvariant,
		},
	})
}

// setupScript sets $REPO to this repository (for the scripts whose point is its own corpus,
// baseline or gate.yaml) and puts the seed module, a changed copy of it (no loose fallback)
// and an older one (olderSeed) in $WORK/seed, when ../shared is there (the condition [seed]
// says whether it is).
func setupScript(env *testscript.Env) error {
	env.Setenv("REPO", repoRoot)
	// Progress lines only at each stage's end: on a slow machine a long stage would add
	// lines to the outputs the scripts compare (their times are masked).
	env.Setenv("COMPACTEVAL_PROGRESS_EVERY", "0")
	src, err := os.ReadFile(seedModule)
	if err != nil {
		return nil
	}
	if !strings.Contains(string(src), looseLine) {
		return errors.New("the seed module no longer has its loose fallback line: update script_test.go")
	}
	dir := filepath.Join(env.WorkDir, "seed")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	changed := strings.Replace(string(src), looseLine, "if (loose) return undefined; // changed: the loose fallback is gone", 1)
	older, err := olderSeed(string(src))
	if err != nil {
		return err
	}
	for name, text := range map[string]string{"compaction.ts": string(src), "changed.ts": changed, "older.ts": older} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// olderSeed returns the seed module without the kept-tail note and without the loose match
// of extractSummary, as internal/review's proof test builds it (the README's review).
func olderSeed(src string) (string, error) {
	for _, e := range [][2]string{
		{"\tconst tail = options.keptTail && options.keptTail.count > 0 ? keptTailNote(options.keptTail) : \"\";\n", ""},
		{"${notice}${tail}\\n", "${notice}\\n"},
		{"\tconst loose = withoutAnalysis.match(/<summary>([\\s\\S]*)<\\/summary>/);\n\tif (loose) return loose[1].trim() || undefined;\n", ""},
	} {
		if !strings.Contains(src, e[0]) {
			return "", fmt.Errorf("the seed module no longer holds %q: update script_test.go", e[0])
		}
		src = strings.Replace(src, e[0], e[1], 1)
	}
	return src, nil
}

// haveSeed reports whether the seed module and Node are there for the scripts that run the
// seed as a user's module; where COMPACTEVAL_REQUIRE_REFERENCE=1 (CI) their absence is an
// error, so that those scripts cannot skip silently.
func haveSeed() (bool, error) {
	why := ""
	if _, err := os.Stat(seedModule); err != nil {
		why = err.Error()
	} else if _, err := execLookPath("node"); err != nil {
		why = "node is not on PATH"
	}
	if why == "" {
		return true, nil
	}
	if os.Getenv(testref.EnvRequire) == "1" {
		return false, fmt.Errorf("the seed module and node: required (%s=1) but missing: %s", testref.EnvRequire, why)
	}
	return false, nil
}

// timings are the parts of an output that change from run to run: durations and rates.
var timings = regexp.MustCompile(`\b\d+(\.\d+)?(s|ms|/s)\b`)

// mask writes stdout, stderr or a file to a file with durations and rates replaced by TIME,
// for cmp (which -update can rewrite): "mask stdout got.txt".
func mask(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: mask stdout|stderr|file dst")
	}
	got := timings.ReplaceAllString(ts.ReadFile(args[0]), "TIME")
	if err := os.WriteFile(ts.MkAbs(args[1]), []byte(got), 0o644); err != nil {
		ts.Fatalf("%v", err)
	}
}

// head writes the first n lines of stdout, stderr or a file to a file, as | head -n does
// in a README transcript: "head 4 stdout got.txt".
func head(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: head n stdout|stderr|file dst")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 0 {
		ts.Fatalf("head: bad line count %q", args[0])
	}
	lines := strings.SplitAfter(ts.ReadFile(args[1]), "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	if err := os.WriteFile(ts.MkAbs(args[2]), []byte(strings.Join(lines, "")), 0o644); err != nil {
		ts.Fatalf("%v", err)
	}
}

// exits runs a program as exec does and checks its exit code, which ! exec does not:
// "exits 2 compacteval run -drift-n 0" (1 is a problem found, 2 a usage or operational error).
func exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits code program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad exit code %q", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			ts.Fatalf("exits: %v", err)
		}
		got = exit.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with %d, want %d", args[1], got, want)
	}
}

// noprocs ARG fails if a running process of this script (its environment holds the
// script's WORK) has ARG among its arguments (read from /proc/PID/cmdline), and kills each
// one it finds so that a failure leaves none behind. Scripts running beside it (another
// go test, a killed one's leftovers) have another WORK.
func noprocs(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: noprocs ARG")
	}
	work := "WORK=" + ts.Getenv("WORK")
	ents, err := os.ReadDir("/proc")
	ts.Check(err)
	var found []string
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		argv := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !slices.Contains(strings.Split(string(env), "\x00"), work) {
			continue
		}
		if slices.Contains(argv[1:], args[0]) {
			found = append(found, fmt.Sprintf("%d (%s)", pid, strings.Join(argv, " ")))
			if p, err := os.FindProcess(pid); err == nil {
				p.Kill()
			}
		}
	}
	if len(found) > 0 {
		ts.Fatalf("processes outlived the command: %s", strings.Join(found, ", "))
	}
}
