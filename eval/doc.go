// Package eval scores how well a compaction summary covers the conversation before the
// kept tail, deterministically and without a model.
//
// The compaction instruction (compact.Instruction) asks for a summary of everything before
// pi's kept tail, with the most recent work described precisely in section 8, and tells
// the model not to re-tell the kept tail. Score measures exactly that, and lists every
// fact it counts as missed or leaked with the message it came from.
//
// # API
//
// An Input is a conversation ([]corpus.Message), the index of its first kept message
// (Cut), a model response or an already extracted summary, optional probes and, for pi
// sessions, the previous compaction's summary. FromCase builds one from a corpus case;
// ReadPiSession and ReadClaudeCode build one per compaction of a session file; Boundary
// computes a cut the way pi does when none is known. Score returns a Result; NewReport and
// Total gather results into the JSON document compacteval score -json writes
// (SchemaVersion). Facts returns the facts of a conversation. Validate builds the
// ablations of each real summary (Ablations) and reports whether the scores rank the real
// one higher.
//
// Every share is a Share: Hit of Of, whose value is undefined (JSON null) when Of is 0,
// never 0 or 1 by default. Output is deterministic: facts are sorted by the message they
// first occur in, then kind and text; maps appear only in Stats, which encoding/json
// writes sorted.
//
// # Facts
//
// Facts are extracted from every message after redaction: the caller's Options.Redact (compacteval passes gitleaks' rules and its own), and
// the values of credential query parameters in URLs (?api_key=, &token=, ...), are removed
// first (in tool output and tool call inputs, from the lines that may hold a secret), so
// that no fact holds a secret. Closing tags (</div>) and slash commands (/compact at a
// line start or in its tag) are removed before paths are looked for.
//
//   - path: a token of path characters with a letter that names a file (a known extension
//     such as .go or .tsx, or a known name such as Makefile or .env), starts with /, ./,
//     ../ or ~/, has three or more components, or ends with /. "and/or", "I/O" and "1/2"
//     are not paths; a two-component token such as src/app, and words joined by slashes
//     (save/load/delete, Develop/Explore/Synthesize), count only as another occurrence of
//     a path written in a surer form elsewhere. /dev/null and /tmp are not
//     facts, nor a name cut short that ends in - or _ (agent-*.jsonl cut at the glob,
//     session-{date}.md at the brace, a path the terminal wrapped). A tool's path
//     argument (path, file_path, ...) is a path whatever its shape.
//   - identifier: a name with a shape of its own: snake_case, camelCase or PascalCase with
//     an inner capital (HTTPServer counts; URLs and PUTs do not), a qualified name
//     (os.ReadFile, std::vector); or a plain name of three or more characters written as a
//     call or signature, such as "Score(", or introduced by def, func, class, ... in code a
//     tool call writes. Common words, language keywords, version numbers, "e.g." and the
//     C stdint types are not identifiers.
//   - error: a line with an error marker (Error:, error:, panic:, FAILED, error TS,
//     undefined:, No such file or directory, ...), from the marker's word to the end of the
//     line, without a leading file:line: location or a trailing duration, at most 12
//     words; lines that look like code ({, }, =>, " = ", a trailing ;) are not errors. At
//     most 5 per message. The output of a tool call that reads a file (Read, read_file,
//     view, ...) is the file's text, not what happened: its error lines (log calls, notes)
//     count only where the session says them again or another tool prints them.
//   - command: a shell tool call's command, a "$ " line, or a line in a sh, bash or
//     console fence: its program and up to two more words (go test ./eval), skipping
//     variable assignments and wrappers (sudo, timeout 60), ending at a redirection (2>,
//     2>&1, >, a here-document's <<), a command substitution or a quote left open, and
//     without trailing flags; one-word commands, a runner and its flag alone (python3 -c,
//     bun -e) and commands that only look around (cd, ls, cat, grep, ...) are not facts.
//     At most 8 per message.
//   - url: a scheme://... token, keyed without the scheme, www., fragment and trailing /.
//   - tool-id: an identifier a tool handed out: a tool call argument named id, ..._id or
//     shellId (and the like) whose value is one token of 4 to 64 characters with a digit
//     (b2f8b9, shell_42; not a to-do list's "1"); a commit hash, 7 to 40 hexadecimal
//     digits with a digit and a letter, keyed by its first 7 (not 1234567, not deadbeef);
//     an issue or pull request number, # and 2 to 6 digits (#482; not "#1"). A summary
//     holds it where the key starts a word and, but for a hash's prefix, ends one.
//   - quantity: in user and assistant prose (not code fences, not tool output), a number
//     with its unit or noun: "12 files", "4,096 rows", "3 failing tests" (a filler such as
//     failing, more, new may stand between), "42%" or "42 percent", "1.5 GB", keyed by the
//     number without separators and the noun's stem ("4096 rows", "3 test"). Not a number
//     that ends a clause ("12," "1."), a range, a date or time (2024-05-06, 10:11, a year
//     from 1900 to 2100), a version (1.2.3, "Go 1.22", "Node 20"), a decimal without a
//     unit, a number after line, step, version, exit code, port, ... (a position or a
//     rank), a number inside another token (main.go:123), a duration ("200ms", "5
//     minutes": they change between runs), or a noun that counts nothing ("2 ways", "3
//     things"). At most 8 per message.
//   - state: a state of work and what is in it, in user and assistant prose: a state word
//     (running, failed, passing, merged, waiting, pending, finished, deployed, stopped,
//     reverted, ... in nine classes) after its subject in the same clause, past linking
//     words (is, still, ...): "job b2f8b9 is still running", "PR #482 merged", "the tests
//     failed"; for "waiting for X", X. Keyed by the subject (stemmed, or an id as tool-id
//     keys it) and the class. Not without a subject ("Running the suite"), after a pronoun
//     ("it failed"), negated ("not passing") or across a clause. A to-do item a tool call
//     writes (TodoWrite's content and status, TaskCreate's subject) is a state keyed by its
//     content words, occurring where it is new or its status changes, not each time the
//     list is sent again. At most 6 per message.
//   - tool-call: the salient argument of a tool call that no other kind takes: a web
//     search's query, a subagent's task (Task's description), a skill's name. A shell
//     command, a file and a URL passed to a tool are command, path and url facts already.
//     Issue and pull request numbers passed to a tool as numbers (pullNumber: 482) or
//     named by gh (gh pr view 482, gh run watch 123456789) are tool-id facts.
//   - request: each user message with at least one content word (four or more letters,
//     not a stop word, lightly stemmed), keyed by up to 40 of them.
//   - probe: a hand-written corpus probe, attached to its message.
//
// A user's sentence is a constraint when it mentions a secret, credential, password, API
// key, private key, token or .env, or opens with never, do not, must not, ...; a question,
// an error message (a pasted log line ending in "No such file or directory"), an opening
// "no," ("no, that's horrible") and the words of a URL are not. A redacted secret in a
// constraint is left out of what must be kept word for word: the words around it are.
//
// Tool output (file reads, logs, custom and bash messages) gives errors only: a summary
// cannot hold every name of every file read. Its "$ " lines count as further occurrences
// of commands said elsewhere. In code that a tool call writes (content, new_string, ...)
// only the definitions count.
//
// # Matching
//
// Matching reads a summary line by line: no key matches across two lines, so that
// removing a line never makes one match. A summary holds a fact when:
//
//   - path: after lowercasing, one path is the other or ends with it at a / boundary, or
//     the fact is a directory the summary names something in (jobs/export.py holds
//     /repo/jobs/export.py and the reverse; a bare export.py holds both). A folder written
//     as one (screenshots/, ./design/, ./design) is a path of the summary; a plain word is
//     not.
//   - identifier: the summary has the name, case-insensitively, alone or as a part of a
//     qualified name; a qualified fact also matches its last part when that part is shaped
//     (ReadFile for os.ReadFile). A plain name ("Score(") matches only where the summary
//     writes it as code: in backticks on the same line, in a fence, or followed by "(".
//   - error, command, url, probe, constraint: the summary contains the key, compared
//     lowercased, with whitespace collapsed and quotes, backticks and asterisks removed; an
//     error also matches the message from its last Error:-like marker, the text after its
//     last colon (three words or more), or its first six words.
//   - request: the summary holds at least half of the message's content words.
//   - quantity: a line of the summary has the number (separators dropped) followed within
//     three words by a word of the noun's stem ("3 tests failing" holds "3 failing
//     tests"), or by %, "percent" or the unit.
//   - state: one line of the summary names the subject and a word of the state's class
//     ("Job b2f8b9 (export) running" holds "job b2f8b9 is still running"); a to-do item,
//     one line with half its content words.
//   - tool-call: a query or a task, half its content words; a skill, its name as a word.
//
// # Formats
//
// A summary is read in lines, each with the role its nearest heading above gives it
// (markdown headings by level, subheadings of an unknown name taking their parent's role).
// The recent part, which boundary_coverage reads, is where each format puts recent work:
//
//   - Claude Code (claude-code): sections 8 Current Work and 9 Optional Next Step of the
//     nine numbered sections; its partial compaction (claude-code-partial): 8 Work
//     Completed and 9 Context for Continuing Work. Section 3, Files and Code Sections, which
//     the instruction also tells to attend to the most recent messages, counts for part:
//     real summaries name every file of the last messages there whatever they say of the
//     work in progress, so that a summary with its Current Work and Next Step deleted lost
//     nothing when section 3 counted as recent work. A window fact that section 3 alone
//     holds earns half its weight in weighted_boundary_coverage (and so in the score) and
//     no count in boundary_coverage.
//   - the older stored Claude Code form (claude-code-stored): "Analysis:" text before
//     "Summary:". Only what follows Summary: is scored, as only it reaches the next context;
//     Result.Analysis scores the analysis on its own.
//   - pi (pi): ## Goal, ## Constraints & Preferences, ## Progress with ### Done, ### In
//     Progress, ### Blocked, ## Key Decisions, ## Next Steps, ## Critical Context; recent:
//     In Progress, Blocked, Next Steps and Critical Context.
//   - Gemini CLI (gemini-cli): <state_snapshot> with <overall_goal>, <key_knowledge>,
//     <file_system_state>, <recent_actions>, <current_plan>; recent: recent_actions and
//     current_plan.
//   - anything else (markdown, unstructured): a heading this package does not know (and
//     text before any heading) counts as recent work, as an unstructured summary is read
//     whole; only known headings of older work (Goal, Done, sections 1, 2 and 4 to 7, ...) are left
//     out. Headings named Current Task, Current State, In Progress, Next Steps, ... are
//     recent in any format.
//
// An instruction's own words: Options.Outline (ParseOutline) reads a summary by the
// sections its instruction asked for, numbered "N. Title: description" lines outside
// <example> blocks. A heading that opens with a part's title takes that part's place: its
// sections of the nine by its title (a merged "Errors, fixes and problem solving" is
// both 4 and 5), or, in an edit of the nine (three titles known, or eight parts or more),
// by its number when its title is one eval does not know (a translation); any other part
// is recent work when its English description asks for the latest state ("the most
// recent messages", "next"), older work when it is in English and does not, and unknown
// otherwise. So renaming, translating, merging or reordering the titles of the sections
// moves no measure. Outline.Unknown lists the parts eval cannot place: boundary coverage of
// such an instruction's summaries is not comparable with another's (the A/B review then
// counts it on neither side, Options.NoBoundary).
//
// Result.Format names the format recognised. A code fence opens with three or more
// backticks or tildes and closes only with three or more of the same character (a
// traceback's ~~~~^^^^ inside a ``` fence closes nothing). A line's role depends only on
// the headings and fence delimiters above it, so removing any other line, removing a section with its
// subsections, or cutting the end never moves a line into the recent part, and reordering
// sections changes nothing but sections.in_order.
//
// # Copied text
//
// Words of the summary that lie in a run of CopyRun (12) or more words shared with an
// assistant or tool message, and lines that such a message holds whole (12 characters or
// more), are copied: Result.Copied is their share of the summary's words, and they earn no
// coverage or boundary coverage. A user's line copied whole counts as copied outside the
// sections that list the user's messages and constraints (1, 6, pi's Constraints &
// Preferences); shorter quotes of the user are not, and constraints_verbatim reads the
// user's words everywhere: the instruction asks for them word for word. An error message
// within a longer line may be quoted exactly. tail_leakage reads the summary with its
// copied text: copying the tail is re-telling it.
//
// # Measures
//
// coverage is the share of the facts of the summarized messages (before the cut) the
// summary holds; weighted_coverage the same with each fact weighing by its weight. boundary_coverage is the share of the facts said in the window (the last
// Options.BoundaryWindow messages before the cut) that the summary's recent part holds (see
// Formats); weighted_boundary_coverage the same weighted, a fact that only section 3 of
// the nine holds earning half its weight, and boundary_facts lists the window's facts with
// their weight and whether the recent part holds each. A window that holds fewer than MinWindowFacts (4) facts, such as the last
// messages of a session polling a background job, grows back one message at a time until
// it holds them (boundary_window, and boundary_window_grown_from in the JSON): on one or
// two facts boundary coverage is 0 or 1 on a coin flip. A conversation whose summarized
// messages hold fewer than MinWindowFacts facts in all is not_enough_to_judge: its score is
// null, never 0, totals count it apart (Totals.NotEnoughToJudge) and leave its coverage and
// boundary coverage out of their means, and Validate lists it in Validity.NotEnough
// instead of comparing it. Reading only that part is deliberate: a good summary repeats recent facts in
// its earlier sections, so the whole summary cannot tell an empty Current Work from a
// precise one. coverage_curve is coverage by decile of the summarized messages, each fact
// placed where it was last said. tail_leakage is the share of the facts found only in the
// kept tail that the summary re-tells. user_messages is the share of the user's messages
// before the cut represented; constraints_verbatim the share of the user's constraints
// kept word for word; misattributed lists the text in assistant messages shaped like a
// user's turn ("User: ...", a reply the assistant suggests) that the summary presents as
// the user's, in sections 1 or 6 or a line that mentions the user. secrets_leaked counts
// the secrets of the conversation the summary carries, and adds the flaw secrets_leaked:
// a secret is never coverage. sections lists the nine sections present and whether they
// are in order; summary_tokens and compression_ratio use pi's estimate of characters / 4.
//
// # Weights
//
// A fact that every message of the session mentions (the repository, the main module)
// tells little about what a summary kept of the work: every summary of the session, and
// most of another session of the project, hold it. Each fact said before the cut weighs
//
//	weight = 1 + ln(N / n)
//
// where N is the number of messages before the cut that hold a fact and n the number of
// them that hold this one (an inverse document frequency over the session's messages),
// rounded to four decimals: 1 for a fact said everywhere, 1 + ln N for one said once. In
// the boundary window, a fact said only there weighs most: it is specific to the work in
// progress. The weight depends on the conversation only, so the weighted measures are
// monotone like the counts. The JSON shows it on each fact of missed and boundary_facts.
//
// # Score
//
// score, the headline score, is one number per case that a reviewer can compare two
// prompts by:
//
//	score = (2·weighted_coverage + 2·weighted_boundary_coverage + constraints_verbatim) /
//	        (sum of the weights of the shares that have something to count) − tail_leakage / 4
//
// clamped at 0 and rounded to four decimals; a share with nothing to count leaves its
// term and weight out, tail_leakage with nothing to count subtracts nothing, and the score
// is null when neither coverage nor boundary_coverage has anything to count, or when the
// case is not enough to judge. Lost
// constraints lower it through constraints_verbatim. The run's score (Totals.Score) is the
// mean over the cases that have one.
//
// Every count is monotone: removing lines other than headings and fence delimiters,
// removing a section with its subsections or cutting the end never raises any hit count,
// the copied words, the misattributed turns, the secrets carried, or the score without its
// tail-leakage term. The score itself rises when removed text re-told the kept tail: that
// is the penalty at work. Property tests check this on every eval case and on generated
// summaries.
//
// # Validity
//
// Validate scores each real summary against eight ablations: another session's summary,
// the summary without its last third of lines, without every second top-level section,
// without its sections of the work in progress (Current Work and Next Step, or the recent
// sections of its format, Formats lists them; section 3 stays), a vague two-line summary,
// the last messages before the cut copied (as long as the summary), a summary of the kept
// tail alone, and the sections shuffled. On coverage, boundary_coverage,
// weighted_coverage, weighted_boundary_coverage and score, each counted apart, a pair is
// won only when the real summary scores strictly higher: a tie is not a win, whether the
// real summary scores 0 or the removed text restated the rest. The shuffle must tie. A
// pair is of no contrast on a measure (NoContrast) when the measure has nothing to count,
// or when the ablation deletes lines, the measure ties, and the removed lines, read under
// their headings, hold no fact the measure counts: the ablation removed nothing the
// measure could see.
// Tallies counts pairs of no contrast apart, per ablation, and the verdicts of the former
// rule (which also left out ties under deletion and real summaries scoring 0) beside;
// the cases not enough to judge are listed apart (Validity.NotEnough). HalfOf splits the
// real validity set (eval/validity/sources.tsv) by repository into a tuning half and a
// held-out half; docs/validity.md reports both.
package eval
