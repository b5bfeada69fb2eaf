package eval

import (
	"strconv"
	"strings"
)

// KindToolCall is a tool invocation with its salient argument, for the tools whose
// argument no other kind takes: a web search and its query, a subagent and its task, a
// skill and its name. A shell command, a file a tool reads or writes and a URL it fetches
// are facts of their own kinds already (command, path, url).
const KindToolCall = "tool-call"

// toolCallArg returns the tool-call fact of a tool call argument named key (lowercased)
// of a tool named tool: its key, and the content words a summary is held to when the
// argument is a sentence (a query, a task); nil words mean the key itself must be said.
func toolCallArg(tool, key, val string) (factKey string, words []string, ok bool) {
	t := strings.ToLower(tool)
	v := strings.TrimSpace(val)
	if v == "" || len(v) > 500 {
		return "", nil, false
	}
	switch {
	case key == "query" && strings.Contains(t, "search"):
		words = contentWords(v, maxRequestWords)
	case key == "description" && (t == "task" || t == "agent" || strings.Contains(t, "subagent")):
		words = contentWords(v, maxRequestWords)
	case key == "skill" || key == "command" && strings.HasPrefix(v, "/") && !strings.ContainsAny(v, " \n") && t == "slashcommand":
		name := strings.ToLower(strings.TrimPrefix(v, "/"))
		if len(name) < 3 || !isName(strings.NewReplacer("-", "_", ":", "_").Replace(name)) {
			return "", nil, false
		}
		return t + " " + name, nil, true
	default:
		return "", nil, false
	}
	if len(words) == 0 {
		return "", nil, false
	}
	return t + " " + strings.Join(words, " "), words, true
}

// numberArg returns the tool-id key of a number argument that names an issue or pull
// request (number, pr, pull_number, issue_number, ...): # and its digits, as issueRef
// keys it.
func numberArg(key string, v float64) (string, bool) {
	k := strings.ReplaceAll(key, "_", "")
	switch k {
	case "number", "pr", "prnumber", "pullnumber", "pullrequest", "pullrequestnumber", "issue", "issuenumber":
	default:
		return "", false
	}
	if v != float64(int64(v)) || v < 10 || v > 999999 {
		return "", false
	}
	return issueRef("#" + strconv.FormatInt(int64(v), 10))
}

// ghRef returns the tool-id of a gh command's issue, pull request or run: gh pr view 42
// gives #42, gh run watch 123456789 gives 123456789.
func ghRef(seg string) (string, bool) {
	f := strings.Fields(seg)
	if len(f) < 4 || f[0] != "gh" {
		return "", false
	}
	for _, a := range f[3:] {
		a = strings.TrimPrefix(a, "#")
		if !allDigits(a) {
			continue
		}
		switch f[1] {
		case "pr", "issue":
			return issueRef("#" + a)
		case "run":
			if len(a) >= 4 {
				return a, true
			}
		}
		return "", false
	}
	return "", false
}
