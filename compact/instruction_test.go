package compact

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"
)

// TestInstructionChecksum catches an accidental edit of the embedded instruction where the
// reference is absent; TestDifferentialConstants compares it with the reference itself.
func TestInstructionChecksum(t *testing.T) {
	const want = "8384b327c9db37cc9d96d091d68ff6f28925ac2bb4c65fe75dc181b80dd2d63f" // sha256 of COMPACTION_INSTRUCTION, computed by Node
	if got := fmt.Sprintf("%x", sha256.Sum256([]byte(Instruction))); got != want {
		t.Errorf("sha256(Instruction) = %s, want %s: the text differs from COMPACTION_INSTRUCTION", got, want)
	}
	if !strings.HasSuffix(Instruction, "Tool calls will be rejected and you will fail the task.") {
		t.Errorf("Instruction does not end with the reminder line")
	}
}

const reminderEnd = "you will fail the task.\n</system-reminder>"

func TestBuildInstruction(t *testing.T) {
	for _, tc := range []struct {
		name     string
		opts     Options
		contains []string
		absent   []string
		reason   string
	}{
		{
			name: "manual", opts: Options{Reason: ReasonManual},
			contains: []string{"<system-reminder>\n" + manualNotice + "\n" + Instruction + "\n</system-reminder>"},
			absent:   []string{"<system-reminder>\n## Compact Instructions", "Only the earlier part"},
			reason:   "one reminder: notice, newline, instruction",
		},
		{
			name: "threshold", opts: Options{Reason: ReasonThreshold},
			contains: []string{runningNotice}, absent: []string{manualNotice},
			reason: "threshold reads as running out",
		},
		{
			name: "unknown reason", opts: Options{Reason: "Manual"},
			contains: []string{runningNotice},
			reason:   "anything but exactly manual reads as running out",
		},
		{
			name: "custom instructions trimmed", opts: Options{Reason: ReasonManual, CustomInstructions: "\ufeff focus on tests \n"},
			contains: []string{"<system-reminder>\n## Compact Instructions\nfocus on tests\n</system-reminder>\n\n<system-reminder>\n"},
			reason:   "a first reminder with the trimmed text, a blank line, then the main one",
		},
		{
			name: "whitespace-only custom instructions", opts: Options{Reason: ReasonManual, CustomInstructions: " \t\n\u3000"},
			absent: []string{"<system-reminder>\n## Compact Instructions"},
			reason: "blank after trim means none",
		},
		{
			name: "NEL-only custom instructions", opts: Options{Reason: ReasonManual, CustomInstructions: "\u0085"},
			contains: []string{"## Compact Instructions\n\u0085\n"},
			reason:   "U+0085 is not JavaScript whitespace, so it is kept",
		},
		{
			name: "kept tail", opts: Options{Reason: ReasonOverflow, KeptTail: KeptTail{Count: 3, Opening: "run the tests"}},
			contains: []string{runningNotice + " Only the earlier part", `the final 3 messages, beginning with the message that opens "run the tests", stay`},
			reason:   "the note follows the notice on the same line",
		},
		{
			name: "zero count", opts: Options{Reason: ReasonManual, KeptTail: KeptTail{Count: 0, Opening: "x"}},
			absent: []string{"Only the earlier part"},
			reason: "a count below 1 adds no note",
		},
		{
			name: "negative count", opts: Options{Reason: ReasonManual, KeptTail: KeptTail{Count: -4}},
			absent: []string{"Only the earlier part"},
			reason: "a count below 1 adds no note",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := BuildInstruction(tc.opts)
			if !strings.HasSuffix(got, reminderEnd) {
				t.Errorf("BuildInstruction(%+v) does not end with the reminder line and closing tag", tc.opts)
			}
			for _, s := range tc.contains {
				if !strings.Contains(got, s) {
					t.Errorf("BuildInstruction(%+v) lacks %q (%s)", tc.opts, s, tc.reason)
				}
			}
			for _, s := range tc.absent {
				if strings.Contains(got, s) {
					t.Errorf("BuildInstruction(%+v) holds %q (%s)", tc.opts, s, tc.reason)
				}
			}
		})
	}
}

func TestBuildInstructionWith(t *testing.T) {
	for _, opts := range []Options{
		{Reason: ReasonManual},
		{Reason: ReasonOverflow, CustomInstructions: "keep the tests", KeptTail: KeptTail{Count: 2, Opening: "go on"}},
	} {
		if got, want := BuildInstructionWith(Instruction, opts), BuildInstruction(opts); got != want {
			t.Errorf("BuildInstructionWith(Instruction, %+v) differs from BuildInstruction:\n%q\n%q", opts, got, want)
		}
		got := BuildInstructionWith("Summarize.", opts)
		want := strings.Replace(BuildInstruction(opts), "\n"+Instruction+"\n", "\nSummarize.\n", 1)
		if got != want || strings.Contains(got, "CRITICAL") {
			t.Errorf("BuildInstructionWith(%q, %+v) = %q, want %q: the same framing around the given text", "Summarize.", opts, got, want)
		}
	}
}

func TestKeptTailNote(t *testing.T) {
	for _, tc := range []struct {
		tail   KeptTail
		want   string
		reason string
	}{
		{KeptTail{Count: 1}, "the final 1 message, stay", "singular only for exactly 1"},
		{KeptTail{Count: 0}, "the final 0 messages, stay", "the note itself prints any count"},
		{KeptTail{Count: -2}, "the final -2 messages, stay", "negative counts print as they are"},
		{KeptTail{Count: 1<<53 + 1}, "the final 9007199254740992 messages", "a JavaScript number loses the low bit past 2^53"},
		{KeptTail{Count: 2, Opening: "  Fix it\n"}, `messages, beginning with the message that opens "Fix it", stay`, "the opening is trimmed"},
		{KeptTail{Count: 2, Opening: "\u00a0\u2028"}, "the final 2 messages, stay", "a blank opening adds no landmark"},
		{KeptTail{Count: 2, Opening: `say "hi"`}, `opens "say "hi""`, "quotes are not escaped"},
	} {
		got := KeptTailNote(tc.tail)
		if !strings.Contains(got, tc.want) {
			t.Errorf("KeptTailNote(%+v) = %q, want it to contain %q (%s)", tc.tail, got, tc.want, tc.reason)
		}
		if !strings.HasPrefix(got, " Only the earlier part") {
			t.Errorf("KeptTailNote(%+v) must begin with a space: it follows the notice", tc.tail)
		}
	}
}

func TestContinuationSummary(t *testing.T) {
	got := ContinuationSummary("S", "")
	if !strings.HasSuffix(got, "conversation.\nS") {
		t.Errorf("ContinuationSummary(S, \"\") = %q, want the preamble, a newline and S", got)
	}
	got = ContinuationSummary("", "/tmp/s.jsonl")
	if !strings.Contains(got, "conversation.\n\n\nThe full transcript of the summarized conversation is at /tmp/s.jsonl (JSONL") {
		t.Errorf("ContinuationSummary(\"\", path) = %q, want an empty summary line then the pointer", got)
	}
	if got := ContinuationSummary("S", " "); !strings.Contains(got, "is at   (JSONL") {
		t.Errorf("ContinuationSummary(S, \" \") = %q: a blank but non-empty path still adds the pointer", got)
	}
}
