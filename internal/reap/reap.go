// Package reap ends every process a command started, however it was started: on Linux the
// command becomes a child subreaper, so that a process an extractor starts in a session of
// its own (setsid, Node's detached spawn), which a process-group kill does not reach, is
// adopted by the command when its parent exits, and All kills it.
//
// Elsewhere Start and All do nothing: a process group is what ends an extractor's
// processes there.
package reap
