// The package's own examples: node --test test/ (npm test), on the built robust.js.
import { test } from "node:test";
import assert from "node:assert/strict";

import { extractSummary } from "../robust.js";

const sections =
	"1. Primary Request and Intent:\n   Fix the parser.\n2. Key Technical Concepts:\n   Go.\n" +
	"3. Files and Code Sections:\n   parse.go\n4. Errors and fixes:\n   none\n5. Problem Solving:\n   done";

const cases = [
	{
		name: "a well-formed answer gives what the seed gives: the summary body, trimmed",
		text: "<analysis>\nI read the files.\n</analysis>\n\n<summary>\n" + sections + "\n</summary>",
		want: sections,
	},
	{
		name: "tags in any letter case and with attributes",
		text: '<ANALYSIS>\nthinking about it\n</ANALYSIS>\n<Summary type="final">\nThe user asked to rename the flag.\n</Summary>',
		want: "The user asked to rename the flag.",
	},
	{
		name: "a tag misspelled by one letter",
		text: "<analysis>\nsecret reasoning\n</analysis>\n<sumary>\nRenamed -out to -o in main.go.\n</sumary>",
		want: "Renamed -out to -o in main.go.",
	},
	{
		name: "an untagged answer gives its text minus the analysis",
		text: "<analysis>\nsecret reasoning\n</analysis>\nThe user wants the tests to pass; I fixed main.go.",
		want: "The user wants the tests to pass; I fixed main.go.",
	},
	{
		name: "analysis alone is no summary",
		text: "<analysis>\nonly thinking, no summary\n</analysis>",
		want: undefined,
	},
	{ name: "an empty answer is no summary", text: "", want: undefined },
];

for (const c of cases) {
	test(c.name, () => {
		assert.equal(extractSummary(c.text), c.want);
	});
}

test("the analysis never leaks into a summary", () => {
	for (const c of cases) {
		const got = extractSummary(c.text);
		if (got !== undefined) assert.ok(!got.includes("reasoning") && !got.includes("thinking"), got);
	}
});
