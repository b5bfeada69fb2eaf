package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
)

const completionUsage = `Usage: compacteval completion bash|zsh|fish

Prints a shell completion script for compacteval: its commands, corpus's subcommands, each
command's flags (not the old names kept as aliases), built-in extractor names after
-extractor, categories after -category, and files elsewhere. The script is made from the
commands' own flag sets, so it lists what this binary accepts.

  bash   source <(compacteval completion bash)            (in ~/.bashrc)
  zsh    compacteval completion zsh > "${fpath[1]}/_compacteval"
  fish   compacteval completion fish > ~/.config/fish/completions/compacteval.fish

Exit codes: 0 the script was printed; 2 no shell or another one.
`

// shells are the shells completion writes scripts for.
var shells = []string{"bash", "zsh", "fish"}

func runCompletion(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("completion", completionUsage, stderr)
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "compacteval completion: want one shell (%s)\n", strings.Join(shells, ", "))
		return exitError
	}
	var script string
	switch specs := completionSpecs(); fs.Arg(0) {
	case "bash":
		script = bashCompletion(specs)
	case "zsh":
		script = zshCompletion(specs)
	case "fish":
		script = fishCompletion(specs)
	default:
		fmt.Fprintf(stderr, "compacteval completion: unknown shell %q (want %s)\n", fs.Arg(0), strings.Join(shells, ", "))
		return exitError
	}
	if _, err := io.WriteString(stdout, script); err != nil {
		fmt.Fprintf(stderr, "compacteval completion: %v\n", err)
		return exitError
	}
	return exitOK
}

// cmdSpec is what completion knows of a command (or of a corpus subcommand, as "corpus lint").
type cmdSpec struct {
	name, summary string
	flags         []flagSpec
}

type flagSpec struct {
	name, usage string
	bool        bool // takes no value
}

// completionSpecs returns every command with its visible flags, read from the flag sets
// the commands define (captureFlags), in the order of the usage; corpus is followed by its
// subcommands, and review offers the A/B review's flags after its own.
func completionSpecs() []cmdSpec {
	flagsOf := func(run func(context.Context, []string, io.Reader, io.Writer, io.Writer) int, args []string) []flagSpec {
		var out []flagSpec
		captureFlags = func(fs *flag.FlagSet) {
			fs.VisitAll(func(f *flag.Flag) {
				b, ok := f.Value.(interface{ IsBoolFlag() bool })
				_, usage := flag.UnquoteUsage(f)
				usage, _, _ = strings.Cut(usage, "\n")
				out = append(out, flagSpec{name: f.Name, usage: usage, bool: ok && b.IsBoolFlag()})
			})
		}
		defer func() { captureFlags = nil }()
		run(context.Background(), args, strings.NewReader(""), io.Discard, io.Discard)
		return out
	}
	var specs []cmdSpec
	for _, c := range commands() {
		if c.name == "corpus" {
			specs = append(specs, cmdSpec{name: c.name, summary: c.summary})
			for _, sub := range corpusSubcommands {
				specs = append(specs, cmdSpec{name: "corpus " + sub, summary: "corpus " + sub, flags: flagsOf(c.run, []string{sub})})
			}
			continue
		}
		flags := flagsOf(c.run, nil)
		if c.name == "review" {
			// review has two flag sets: the A/B review's (with -provider) adds its own.
			for _, f := range flagsOf(c.run, []string{"-provider"}) {
				if !slices.ContainsFunc(flags, func(g flagSpec) bool { return g.name == f.name }) {
					flags = append(flags, f)
				}
			}
		}
		specs = append(specs, cmdSpec{name: c.name, summary: c.summary, flags: flags})
	}
	return specs
}

// topWords are what may follow compacteval: the commands, help and version.
func topWords(specs []cmdSpec) []string {
	var w []string
	for _, s := range specs {
		if !strings.Contains(s.name, " ") {
			w = append(w, s.name)
		}
	}
	return append(w, "help", "version")
}

func commandNames(specs []cmdSpec) []string {
	var w []string
	for _, s := range specs {
		if !strings.Contains(s.name, " ") {
			w = append(w, s.name)
		}
	}
	return w
}

func flagNames(s cmdSpec) []string {
	var w []string
	for _, f := range s.flags {
		w = append(w, "-"+f.name)
	}
	return w
}

// valueWords are the values completed after -extractor and -category.
func extractorWords() []string { return append(compact.ExtractorNames(), "module:", "cmd:") }

func categoryWords() []string {
	c := append([]string(nil), corpus.Categories...)
	sort.Strings(c)
	return c
}

func bashCompletion(specs []cmdSpec) string {
	var b strings.Builder
	fmt.Fprintf(&b, `# bash completion for compacteval; made by compacteval completion bash.
_compacteval() {
    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
    local cmd="${COMP_WORDS[1]}" flags="" values=""
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "%s" -- "$cur"))
        return
    fi
    if [ "$cmd" = corpus ]; then
        if [ "$COMP_CWORD" -eq 2 ]; then
            COMPREPLY=($(compgen -W "%s" -- "$cur"))
            return
        fi
        cmd="corpus ${COMP_WORDS[2]}"
    fi
    case "$cmd" in
    help) COMPREPLY=($(compgen -W "%s" -- "$cur")); return ;;
    completion) COMPREPLY=($(compgen -W "%s" -- "$cur")); return ;;
`, strings.Join(topWords(specs), " "), strings.Join(corpusSubcommands, " "), strings.Join(commandNames(specs), " "), strings.Join(shells, " "))
	for _, s := range specs {
		if s.name == "corpus" || s.name == "completion" {
			continue
		}
		var values []string
		for _, f := range s.flags {
			if !f.bool {
				values = append(values, "-"+f.name)
			}
		}
		fmt.Fprintf(&b, "    %q) flags=%q; values=%q ;;\n", s.name, strings.Join(flagNames(s), " "), " "+strings.Join(values, " ")+" ")
	}
	fmt.Fprintf(&b, `    esac
    case "$prev" in
    -extractor|-eval-extractor) COMPREPLY=($(compgen -W "%s" -- "$cur")); compopt -o nospace 2>/dev/null; return ;;
    -category) COMPREPLY=($(compgen -W "%s" -- "$cur")); return ;;
    esac
    if [[ "$values" == *" $prev "* ]]; then
        COMPREPLY=($(compgen -f -- "$cur"))
        return
    fi
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$flags" -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o filenames -F _compacteval compacteval
`, strings.Join(extractorWords(), " "), strings.Join(categoryWords(), " "))
	return b.String()
}

// zshQuote quotes s for a single-quoted zsh word inside an _arguments spec.
func zshQuote(s string) string {
	r := strings.NewReplacer("'", `'\''`, "[", "(", "]", ")", ":", `\:`, "\\", `\\`)
	return r.Replace(s)
}

func zshCompletion(specs []cmdSpec) string {
	var b strings.Builder
	b.WriteString("#compdef compacteval\n# zsh completion for compacteval; made by compacteval completion zsh.\n_compacteval() {\n")
	b.WriteString("  local -a commands subcommands\n  commands=(\n")
	for _, s := range specs {
		if !strings.Contains(s.name, " ") {
			fmt.Fprintf(&b, "    '%s:%s'\n", s.name, zshQuote(s.summary))
		}
	}
	b.WriteString("    'help:the usage, or a command'\\''s'\n    'version:the version'\n  )\n")
	fmt.Fprintf(&b, "  subcommands=(%s)\n", strings.Join(corpusSubcommands, " "))
	b.WriteString(`  if (( CURRENT == 2 )); then
    _describe command commands
    return
  fi
  local cmd=$words[2]
  shift words; (( CURRENT-- ))
  if [[ $cmd == corpus ]]; then
    if (( CURRENT == 2 )); then
      _values subcommand $subcommands
      return
    fi
    cmd="corpus $words[2]"
    shift words; (( CURRENT-- ))
  fi
  case $cmd in
`)
	fmt.Fprintf(&b, "  help) _values command %s ;;\n", strings.Join(commandNames(specs), " "))
	fmt.Fprintf(&b, "  completion) _values shell %s ;;\n", strings.Join(shells, " "))
	for _, s := range specs {
		if s.name == "corpus" || s.name == "completion" {
			continue
		}
		fmt.Fprintf(&b, "  '%s') _arguments", s.name)
		for _, f := range s.flags {
			action := ":value:_files"
			switch {
			case f.bool:
				action = ""
			case f.name == "extractor" || f.name == "eval-extractor":
				action = ":extractor:(" + strings.Join(extractorWords(), " ") + ")"
			case f.name == "category":
				action = ":category:(" + strings.Join(categoryWords(), " ") + ")"
			}
			fmt.Fprintf(&b, " \\\n      '*-%s[%s]%s'", f.name, zshQuote(f.usage), action)
		}
		b.WriteString(" \\\n      '*:file:_files' ;;\n")
	}
	b.WriteString("  esac\n}\nif [[ $zsh_eval_context[-1] == loadautofunc ]]; then\n  _compacteval \"$@\"\nelse\n  compdef _compacteval compacteval\nfi\n")
	return b.String()
}

// fishQuote quotes s as one single-quoted fish word.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}

func fishCompletion(specs []cmdSpec) string {
	var b strings.Builder
	b.WriteString("# fish completion for compacteval; made by compacteval completion fish.\n")
	for _, s := range specs {
		if !strings.Contains(s.name, " ") {
			fmt.Fprintf(&b, "complete -c compacteval -n __fish_use_subcommand -f -a %s -d %s\n", s.name, fishQuote(s.summary))
		}
	}
	fmt.Fprintf(&b, "complete -c compacteval -n __fish_use_subcommand -f -a help -d %s\n", fishQuote("the usage, or a command's"))
	fmt.Fprintf(&b, "complete -c compacteval -n __fish_use_subcommand -f -a version -d %s\n", fishQuote("the version"))
	fmt.Fprintf(&b, "complete -c compacteval -n '__fish_seen_subcommand_from help' -f -a %s\n", fishQuote(strings.Join(commandNames(specs), " ")))
	fmt.Fprintf(&b, "complete -c compacteval -n '__fish_seen_subcommand_from completion' -f -a %s\n", fishQuote(strings.Join(shells, " ")))
	subs := strings.Join(corpusSubcommands, " ")
	fmt.Fprintf(&b, "complete -c compacteval -n '__fish_seen_subcommand_from corpus; and not __fish_seen_subcommand_from %s' -f -a %s\n", subs, fishQuote(subs))
	for _, s := range specs {
		if s.name == "corpus" || s.name == "completion" {
			continue
		}
		cond := "__fish_seen_subcommand_from " + s.name
		if sub, ok := strings.CutPrefix(s.name, "corpus "); ok {
			cond = "__fish_seen_subcommand_from corpus; and __fish_seen_subcommand_from " + sub
		}
		for _, f := range s.flags {
			extra := ""
			switch {
			case f.bool:
			case f.name == "extractor" || f.name == "eval-extractor":
				extra = " -x -a " + fishQuote(strings.Join(extractorWords(), " "))
			case f.name == "category":
				extra = " -x -a " + fishQuote(strings.Join(categoryWords(), " "))
			default:
				extra = " -r -F"
			}
			fmt.Fprintf(&b, "complete -c compacteval -n %s -o %s -d %s%s\n", fishQuote(cond), f.name, fishQuote(f.usage), extra)
		}
	}
	return b.String()
}
