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
// Facts are extracted from every message:
//
//   - path: a token of path characters with a letter that names a file (a known extension
//     such as .go or .tsx, or a known name such as Makefile or .env), starts with /, ./,
//     ../ or ~/, has three or more components, or ends with /. "and/or", "I/O" and "1/2"
//     are not paths; a two-component token such as src/app counts only as another
//     occurrence of a path written in a surer form elsewhere. /dev/null and /tmp are not
//     facts. A tool's path argument (path, file_path, ...) is a path whatever its shape.
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
//     most 5 per message.
//   - command: a shell tool call's command, a "$ " line, or a line in a sh, bash or
//     console fence: its program and up to two more words (go test ./eval), skipping
//     variable assignments and wrappers (sudo, timeout 60); one-word commands and
//     commands that only look around (cd, ls, cat, grep, ...) are not facts. At most 8
//     per message.
//   - url: a scheme://... token, keyed without the scheme, www., fragment and trailing /.
//   - request: each user message with at least one content word (four or more letters,
//     not a stop word, lightly stemmed), keyed by up to 40 of them.
//   - probe: a hand-written corpus probe, attached to its message.
//
// Tool output (file reads, logs, custom and bash messages) gives errors only: a summary
// cannot hold every name of every file read. Its "$ " lines count as further occurrences
// of commands said elsewhere. In code that a tool call writes (content, new_string, ...)
// only the definitions count.
//
// # Matching
//
// A summary holds a fact when:
//
//   - path: after lowercasing, one path is the other or ends with it at a / boundary, or
//     the fact is a directory the summary names something in (jobs/export.py holds
//     /repo/jobs/export.py and the reverse; a bare export.py holds both).
//   - identifier: the summary has the name, case-insensitively, alone or as a part of a
//     qualified name; a qualified fact also matches its last part when that part is shaped
//     (ReadFile for os.ReadFile). A plain name ("Score(") matches only where the summary
//     writes it as code: in backticks or a fence, or followed by "(".
//   - error, command, url, probe, constraint: the summary contains the key, compared
//     lowercased, with whitespace collapsed and quotes, backticks and asterisks removed; an
//     error also matches the message from its last Error:-like marker, the text after its
//     last colon (three words or more), or its first six words.
//   - request: the summary holds at least half of the message's content words.
//
// # Measures
//
// coverage is the share of the facts of the summarized messages (before the cut) the
// summary holds. boundary_coverage is the share of the facts said in the window (the last
// Options.BoundaryWindow messages before the cut) that the summary's account of recent
// work holds: its sections 8 and 9, or its last third when it has fewer than three section
// headings. Reading only those sections is deliberate: a good summary repeats recent
// facts in sections 1 and 3, so the whole summary cannot tell an empty Current Work from a
// precise one. coverage_curve is coverage by decile of the summarized messages, each fact
// placed where it was last said. tail_leakage is the share of the facts found only in the
// kept tail that the summary re-tells. user_messages is the share of the user's messages
// before the cut represented; constraints_verbatim the share of security-relevant
// sentences of the user (mentioning a secret, credential, password, API key, private key,
// token or .env, or opening with never, do not, must not, ...) kept word for word;
// misattributed lists the text in assistant messages shaped like a user's turn ("User:
// ...", a reply the assistant suggests) that the summary presents as the user's, in
// sections 1 or 6 or a line that mentions the user. sections lists the nine sections
// present and whether they are in order; summary_tokens and compression_ratio use pi's
// estimate of characters / 4.
//
// # Validity
//
// Validate scores each real summary against four ablations: another conversation's
// summary, the summary without its last third, a summary of the kept tail alone, and the
// summary without section 8. The real summary must score strictly higher on coverage or
// boundary_coverage. An ablation that cuts out text holding no fact (the vague Current
// Work of a summary that drops recent work) cannot lose points and is reported as not
// applicable instead of as a pair.
package eval
