#!/usr/bin/env node
// The compacteval launcher: runs the compacteval binary of the platform package that npm
// installed beside this one (@compacteval/cli-<platform>-<arch>, an optional dependency
// whose os and cpu fields let npm install only the one that fits), as esbuild and biome
// ship theirs. Arguments, stdio and the exit code pass through; a signal that ends the
// binary ends the launcher the same way.
"use strict";

const { spawnSync } = require("node:child_process");
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

const result = spawnSync(binary, process.argv.slice(2), { stdio: "inherit" });
if (result.error) {
  process.stderr.write(`compacteval: run ${binary}: ${result.error.message}\n`);
  process.exit(2);
}
if (result.signal) {
  process.kill(process.pid, result.signal);
}
process.exit(result.status ?? 2);
