// Package compact is a byte-exact Go port of the compaction prompt module that coding agents
// use to summarize a long conversation, plus the other extractors compacteval compares with it.
//
// The port follows compaction.ts as shipped in ../shared/seed (the TypeScript module behind
// pi's Claude Code-style compaction; its JavaScript build is ../shared/reference/compaction.mjs).
// Instruction, BuildInstruction, KeptTailNote, ContinuationSummary and ExtractSummary return
// what COMPACTION_INSTRUCTION, buildCompactionInstruction, keptTailNote, continuationSummary and
// extractSummary return, byte for byte, for every input made of Unicode scalar values. The
// differential test in this package drives the reference under Node to prove it.
//
// Reproduced on purpose, because the reference does them:
//   - A multiline ^ or $ in the reference's patterns treats \n, \r, U+2028 and U+2029 as line
//     terminators, while the tag lines themselves must end in \n: a "<summary>\r\n" opener is
//     not line-anchored, but "\n</summary>\r" closes a block.
//   - Trimming uses JavaScript's whitespace set (TrimJS): it removes U+FEFF and keeps U+0085,
//     the opposite of strings.TrimSpace.
//   - The line-anchored block runs from the first opener line to the last closer line (greedy),
//     the loose block from the first "<summary>" to the last "</summary>", and every closed
//     <analysis> block is removed first (lazy, global).
//   - A summary that trims to nothing counts as no summary, and the reference does not then try
//     its later fallbacks.
//   - Any reason other than manual is worded as the context running out.
//
// The reference's line-anchored regular expression backtracks (seconds on 100 KB of unclosed
// opener lines); Extract finds the same match with a linear scan.
//
// JavaScript strings are UTF-16 and cannot hold invalid UTF-8. Go strings can: every function
// here treats a byte that is not part of valid UTF-8 as an opaque character that is not
// whitespace and not a line terminator, keeps it as it is, and never panics on it.
package compact
