/**
 * extractSummary returns the summary of a compaction answer, or undefined when it holds
 * none. Same signature as the seed module's extractSummary.
 */
export declare function extractSummary(text: string): string | undefined;
