// Times extractSummary of a module (robust.ts with its types removed) on benchmark inputs
// written by internal/cmd/benchinputs, as Go's benchmarks time theirs: after a warm-up, runs
// an input until MS milliseconds have passed (at least once) and prints its name and the
// mean time per run in nanoseconds and its size in UTF-8 bytes, one input a line. The input "corpus" is corpus.json, every
// response of the bundled corpus in turn, as BenchmarkCorpusAnswers.
// Usage: node scripts/time-robust-ts.mjs MODULE DIR MS NAME...   (scripts/bench-robust-ts.sh)
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [module, dir, ms, ...names] = process.argv.slice(2);
const { extractSummary } = await import(pathToFileURL(resolve(module)).href);
const budget = BigInt(Math.round(Number(ms) * 1e6));

function texts(name) {
	if (name === "corpus") return JSON.parse(readFileSync(join(dir, "corpus.json"), "utf8"));
	return [readFileSync(join(dir, name + ".txt"), "utf8")];
}

function time(inputs, limit) {
	let runs = 0;
	const start = process.hrtime.bigint();
	let elapsed = 0n;
	do {
		for (const t of inputs) extractSummary(t);
		runs++;
		elapsed = process.hrtime.bigint() - start;
	} while (elapsed < limit);
	return elapsed / BigInt(runs);
}

for (const name of names) {
	const inputs = texts(name);
	time(inputs, budget / 4n); // warm-up: the JIT compiles what this input runs
	const bytes = inputs.reduce((n, t) => n + Buffer.byteLength(t), 0);
	console.log(`${name} ${time(inputs, budget)} ${bytes}`);
}
