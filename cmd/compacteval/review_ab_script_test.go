package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/compacteval/compacteval/internal/record/recordtest"
	"github.com/rogpeppe/go-internal/testscript"
)

// fakeModels holds each script's fake model server.
var fakeModels sync.Map // *testscript.TestScript -> *recordtest.FakeModel

// fakemodel starts a recordtest.FakeModel for the script and sets $FAKEMODEL to its
// OpenAI base URL ("fakemodel start [BREAK-RATE [REFUSE]]", default rate 0.2; "fakemodel
// start empty" starts a server whose every answer is empty instead), or checks how many
// calls it has answered ("fakemodel calls N"). It answers batches too (each reported in
// progress once, then ended). With REFUSE, a request whose body holds that text gets a
// 400 error instead of an answer. Starting it again starts a new fake, which has been
// asked nothing. The server closes when the script ends.
func fakemodel(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: fakemodel start [rate [refuse]] | fakemodel calls N")
	}
	switch args[0] {
	case "start":
		rate := 0.2
		if len(args) > 1 && args[1] == "empty" { // a server whose every answer is empty
			srv := recordtest.Start()
			srv.Respond = func([]byte) recordtest.Reply { return recordtest.Reply{} }
			ts.Defer(srv.Close)
			ts.Setenv("FAKEMODEL", srv.URL+"/v1")
			return
		}
		if len(args) > 1 {
			var err error
			if rate, err = strconv.ParseFloat(args[1], 64); err != nil {
				ts.Fatalf("fakemodel: bad rate %q", args[1])
			}
		}
		fake := &recordtest.FakeModel{BreakRate: rate}
		srv := recordtest.Start()
		srv.Respond = fake.Reply
		if len(args) > 2 {
			refuse := args[2]
			srv.Respond = func(body []byte) recordtest.Reply {
				if strings.Contains(string(body), refuse) {
					return recordtest.Reply{Status: http.StatusBadRequest, ErrType: "invalid_request_error", ErrMessage: "this conversation is refused"}
				}
				return fake.Reply(body)
			}
		}
		srv.PendingPolls = 1
		ts.Defer(srv.Close)
		fakeModels.Store(ts, fake)
		ts.Setenv("FAKEMODEL", srv.URL+"/v1")
	case "calls":
		v, ok := fakeModels.Load(ts)
		if !ok || len(args) != 2 {
			ts.Fatalf("usage: fakemodel calls N, after fakemodel start")
		}
		want, err := strconv.Atoi(args[1])
		if err != nil {
			ts.Fatalf("fakemodel: bad count %q", args[1])
		}
		if got := v.(*recordtest.FakeModel).Calls(); got != want {
			ts.Fatalf("the fake model answered %d calls, want %d", got, want)
		}
	default:
		ts.Fatalf("fakemodel: unknown verb %q", args[0])
	}
}

// seedVariants are edits of the seed module that the A/B scripts review: each is a list of
// old, new pairs.
var seedVariants = map[string][]string{
	// Section 8 (Current Work) gone from the list and the example.
	"no-current-work": {
		"8. Current Work: Describe in detail precisely what was being worked on immediately before this summary request, paying special attention to the most recent messages from both user and assistant. Include file names and code snippets where applicable.\n", "",
		"8. Current Work:\n   [Precise description of current work]\n\n", "",
	},
	// The kept-tail note no longer built.
	"no-tail-note": {
		"\tconst tail = options.keptTail && options.keptTail.count > 0 ? keptTailNote(options.keptTail) : \"\";\n", "\tconst tail = \"\";\n",
	},
	// A rewording of a sentence the fake model does not read.
	"reworded": {
		"Your task is to create a detailed summary", "Your job is to write a thorough summary",
	},
	// extractSummary without its two fallbacks: a summary whose tags broke is lost.
	"strict": {
		"\tif (loose) return loose[1].trim() || undefined;\n", "\tif (loose) return undefined;\n",
		"\treturn withoutAnalysis.trim() || undefined;\n", "\treturn undefined;\n",
	},
}

// seedvariant writes $WORK/seed/NAME.ts, an edit of the seed module (seedVariants):
// "seedvariant no-current-work". It needs the [seed] condition.
func seedvariant(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: seedvariant NAME")
	}
	edits, ok := seedVariants[args[0]]
	if !ok {
		ts.Fatalf("seedvariant: unknown variant %q", args[0])
	}
	src, err := os.ReadFile(seedModule)
	ts.Check(err)
	text := string(src)
	for i := 0; i < len(edits); i += 2 {
		if !strings.Contains(text, edits[i]) {
			ts.Fatalf("%v", fmt.Errorf("the seed module no longer holds %q: update review_ab_script_test.go", edits[i]))
		}
		text = strings.Replace(text, edits[i], edits[i+1], 1)
	}
	dir := ts.MkAbs("seed")
	ts.Check(os.MkdirAll(dir, 0o755))
	ts.Check(os.WriteFile(filepath.Join(dir, args[0]+".ts"), []byte(text), 0o644))
}
