// Times extractSummary of a module (robust.ts with its types removed) on benchmark inputs
// written by internal/cmd/benchinputs, as internal/cmd/timerobust times the Go robust: after
// a warm-up, runs an input until MS milliseconds of CPU time (user and system, of the whole
// process) have passed and prints its name, the CPU time per run in nanoseconds and its size
// in UTF-8 bytes, one input a line. The input "corpus" is corpus.json, every response of the
// bundled corpus in turn.
// Usage: node scripts/time-robust-ts.mjs MODULE DIR MS NAME...   (scripts/bench-robust-ts.sh)
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [module, dir, ms, ...names] = process.argv.slice(2);
const { extractSummary } = await import(pathToFileURL(resolve(module)).href);
const budget = Number(ms) * 1e6;

function texts(name) {
	if (name === "corpus") return JSON.parse(readFileSync(join(dir, "corpus.json"), "utf8"));
	return [readFileSync(join(dir, name + ".txt"), "utf8")];
}

function cpu() {
	const u = process.cpuUsage();
	return (u.user + u.system) * 1000;
}

// run extracts every text in turn until limit nanoseconds of CPU time have passed (at least
// once) and returns the CPU time per round.
function run(inputs, limit) {
	let runs = 0;
	const start = cpu();
	do {
		for (const t of inputs) extractSummary(t);
		runs++;
	} while (cpu() - start < limit);
	return Math.round((cpu() - start) / runs);
}

for (const name of names) {
	const inputs = texts(name);
	// Warm-up: the JIT compiles (and recompiles) what this input runs; the corpus's 221
	// answers need about twenty rounds of them, then twice the budget. A round of a 10 MB
	// input runs longer than the budget: the twenty stop after twice the budget.
	const start = cpu();
	for (let n = 0; n < 20 && cpu() - start < 2 * budget; n++) run(inputs, 0);
	run(inputs, 2 * budget);
	const bytes = inputs.reduce((n, t) => n + Buffer.byteLength(t), 0);
	console.log(`${name} ${run(inputs, budget)} ${bytes}`);
}
