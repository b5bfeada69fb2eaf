// Answers the protocol's extract requests (docs/protocol.md) with the extractSummary of the
// module named by its argument: the TypeScript robust with its types removed, for
// TestRobustTypeScriptAgrees.
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const { extractSummary } = await import(pathToFileURL(process.argv[2]).href);
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
	if (line.trim() === "") continue;
	let out;
	try {
		const req = JSON.parse(line);
		if (req.op !== "extract") throw new Error(`unknown op ${JSON.stringify(req.op)}`);
		const s = extractSummary(req.text);
		out = { summary: s === undefined ? null : s };
	} catch (e) {
		out = { error: String(e && e.message ? e.message : e) };
	}
	process.stdout.write(JSON.stringify(out) + "\n");
}
