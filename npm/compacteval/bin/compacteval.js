#!/usr/bin/env node
// The compacteval launcher: runs the compacteval binary of the platform package that npm
// installed beside this one (@compacteval/cli-<platform>-<arch>, an optional dependency
// whose os and cpu fields let npm install only the one that fits), as esbuild and biome
// ship theirs. Arguments, stdio and the exit code pass through; SIGTERM, SIGHUP and
// SIGINT sent to the launcher are passed to the binary; a signal that ends the binary
// ends the launcher the same way.
"use strict";

const { spawn } = require("node:child_process");
const path = require("node:path");

const pkg = `@compacteval/cli-${process.platform}-${process.arch}`;
const exe = process.platform === "win32" ? "compacteval.exe" : "compacteval";

let binary;
try {
  binary = require.resolve(`${pkg}/bin/${exe}`);
} catch {
  const version = require(path.join(__dirname, "..", "package.json")).version;
  process.stderr.write(
    `compacteval: the package ${pkg} is not installed, so there is no binary for ${process.platform}-${process.arch}.\n` +
      `npm installs it with compacteval unless optional dependencies are omitted (--omit=optional, --no-optional);\n` +
      `install it with npm install ${pkg}@${version}, or use a release archive or go install (see the README).\n`,
  );
  process.exit(2);
}

// The binary runs beside the launcher, not in its place (node cannot exec), so the
// launcher passes on the signals meant for it: SIGTERM and SIGHUP (a process manager, a
// CI runner's cancel, kill) always; SIGINT only when no terminal is attached, since a
// terminal's Ctrl-C reaches the binary itself, and a second SIGINT would make it exit at
// once instead of cleaning up. The handlers are in place before the binary starts: a
// signal that came between would end the launcher alone.
let child;
const forward = (sig) => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill(sig);
};
const forwarded = ["SIGTERM", "SIGHUP"];
if (!process.stdin.isTTY && !process.stdout.isTTY && !process.stderr.isTTY) {
  forwarded.push("SIGINT");
} else {
  process.on("SIGINT", () => {}); // the terminal told the binary too; wait for its exit
}
for (const sig of forwarded) process.on(sig, forward);
child = spawn(binary, process.argv.slice(2), { stdio: "inherit" });

child.on("error", (err) => {
  process.stderr.write(`compacteval: run ${binary}: ${err.message}\n`);
  process.exit(2);
});
child.on("exit", (code, signal) => {
  if (signal) {
    // Die of the same signal, so that the caller sees what the binary's death was.
    for (const sig of ["SIGTERM", "SIGHUP", "SIGINT"]) process.removeAllListeners(sig);
    process.kill(process.pid, signal);
    const number = require("node:os").constants.signals[signal] ?? 0;
    process.exit(128 + number); // a signal that does not end node (SIGCHLD, say)
  }
  process.exit(code ?? 2);
});
