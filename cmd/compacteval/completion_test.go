package main

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestCompletionCovers checks that every shell's script names every command, corpus
// subcommand and visible flag, and no hidden alias: the scripts are made from the flag
// sets, and this fails if a command or flag escapes them.
func TestCompletionCovers(t *testing.T) {
	specs := completionSpecs()
	if len(specs) < len(commands()) {
		t.Fatalf("completionSpecs() has %d commands, want at least the %d of commands()", len(specs), len(commands()))
	}
	flags := map[string][]string{} // command -> its flags, as the usage lists them
	for _, s := range specs {
		flags[s.name] = flagNames(s)
	}
	if got := flags["drift"]; !slices.Contains(got, "-drift-seed") || slices.Contains(got, "-seed") || slices.Contains(got, "-n") {
		t.Errorf("drift's completion flags = %q, want -drift-seed and not the hidden -seed, -n", got)
	}
	for _, want := range []string{"-base", "-head-cmd", "-provider", "-samples", "-base-file", "-max-cost"} {
		if !slices.Contains(flags["review"], want) {
			t.Errorf("review's completion flags = %q, want %s (the A/B review's flags too)", flags["review"], want)
		}
	}
	if len(flags["corpus lint"]) == 0 {
		t.Errorf("corpus lint has no completion flags; want its -deviations and -max-case-bytes")
	}
	for _, shell := range shells {
		var out, errb strings.Builder
		if code := run(context.Background(), []string{"completion", shell}, strings.NewReader(""), &out, &errb); code != exitOK {
			t.Fatalf("completion %s = exit %d, stderr %q", shell, code, errb.String())
		}
		script := out.String()
		for _, c := range commands() {
			if !strings.Contains(script, c.name) {
				t.Errorf("the %s script does not name command %s", shell, c.name)
			}
		}
		for _, sub := range corpusSubcommands {
			if !strings.Contains(script, sub) {
				t.Errorf("the %s script does not name corpus %s", shell, sub)
			}
		}
		for _, s := range specs {
			for _, f := range s.flags {
				word := "-" + f.name
				if shell == "fish" {
					word = "-o " + f.name + " "
				}
				if !strings.Contains(script, word) {
					t.Errorf("the %s script does not offer %s's flag -%s", shell, s.name, f.name)
				}
			}
		}
		if strings.Contains(script, "-o inbox") || strings.Contains(script, "-inbox") {
			t.Errorf("the %s script offers fuzz's hidden -inbox", shell)
		}
	}
}

// TestCorpusSubcommands checks that corpusSubcommands are the subcommands runCorpus knows.
func TestCorpusSubcommands(t *testing.T) {
	for _, sub := range corpusSubcommands {
		helpOut = &strings.Builder{}
		if code := runCorpus(context.Background(), []string{sub, "-h"}, strings.NewReader(""), &strings.Builder{}, &strings.Builder{}); code != exitOK {
			t.Errorf("corpus %s -h = exit %d, want 0", sub, code)
		}
	}
}
