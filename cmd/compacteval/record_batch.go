package main

import (
	"context"
	"fmt"
	"io"

	"github.com/compacteval/compacteval/internal/record"
)

// submitBatch sends the jobs not yet answered as one batch and prints its id alone on
// stdout (or the JSON document), so that scripts can keep it.
func submitBatch(ctx context.Context, rec *record.Recorder, t record.Target, jobs []record.Job, asJSON bool, h recordHint, stdout, stderr io.Writer) int {
	m, done, err := rec.Submit(ctx, t, jobs)
	if err != nil {
		fmt.Fprintf(stderr, "compacteval record: %s\n", h.explain(err))
		return exitError
	}
	if m == nil {
		fmt.Fprintln(stderr, "compacteval record: nothing to submit: every case is written or its answer cached")
		return reportRecord(stdout, stderr, done, nil, asJSON, t.Out)
	}
	batch := &batchReport{ID: m.ID, Provider: m.Provider, Status: "submitted", Items: len(m.Items), Manifest: record.ManifestPath(rec.Cache.Dir, m.ID)}
	fmt.Fprintf(stderr, "compacteval record: submitted batch %s with %s (manifest %s); %d written without it\n",
		m.ID, plural(len(m.Items), "request"), batch.Manifest, len(done))
	fmt.Fprintf(stderr, "compacteval record: collect it with: compacteval record -collect %s -cache %s\n", m.ID, rec.Cache.Dir)
	if asJSON {
		return reportRecord(stdout, stderr, done, batch, true, t.Out)
	}
	fmt.Fprintln(stdout, m.ID)
	for _, o := range done {
		if o.Status == record.StatusFailed {
			fmt.Fprintf(stderr, "compacteval record: %s failed: %s\n", o.Job.ID, h.explain(o.Err))
			return exitError
		}
	}
	return exitOK
}

// runCollect collects a submitted batch: exit 1 while it runs, else the cases written.
func runCollect(ctx context.Context, f *recordFlags, stdout, stderr io.Writer) int {
	m, err := record.ReadManifest(f.cache, f.collect)
	if err != nil {
		fmt.Fprintf(stderr, "compacteval record: %v\n", err)
		return exitError
	}
	endpoint := m.Endpoint
	switch {
	case f.baseURL != "":
		if record.EndpointText(f.baseURL) != m.Endpoint {
			fmt.Fprintf(stderr, "compacteval record: -base-url %s is not where batch %s was submitted (%s)\n", record.EndpointText(f.baseURL), m.ID, m.Endpoint)
			return exitError
		}
		endpoint = f.baseURL
	case m.EndpointRedacted:
		fmt.Fprintf(stderr, "compacteval record: batch %s was submitted to %s, whose query values the manifest does not keep: give the same -base-url\n", m.ID, m.Endpoint)
		return exitError
	}
	key, env := f.apiKey(m.Provider)
	secrets := recordSecrets(key, endpoint)
	out, errOut := newRedactWriter(stdout, secrets), newRedactWriter(stderr, secrets)
	defer out.Flush()
	defer errOut.Flush()
	stdout, stderr = out, errOut
	rec, sent, err := f.recorder(m.Provider, endpoint, key, env, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "compacteval record: %v\n", err)
		return exitError
	}
	rec.Secrets = secrets
	h := recordHint{provider: m.Provider, model: m.Model, baseURL: endpoint, keyEnv: env, key: key, keySent: sent, cache: f.cache, batch: true}
	status, outs, err := rec.Collect(ctx, m)
	if err != nil {
		fmt.Fprintf(stderr, "compacteval record: %s\n", h.explain(err))
		return exitError
	}
	batch := &batchReport{ID: m.ID, Provider: m.Provider, Status: status, Items: len(m.Items), Manifest: record.ManifestPath(f.cache, m.ID)}
	if outs == nil {
		fmt.Fprintf(stderr, "compacteval record: batch %s is %s; collect it again later\n", m.ID, status)
		if f.asJSON {
			writeJSON(stdout, stderr, newRecordReport(nil, batch))
		}
		return exitProblem
	}
	for _, o := range outs {
		if o.Err != nil {
			fmt.Fprintf(stderr, "compacteval record: %s failed: %s\n", o.Job.ID, h.explain(o.Err))
		}
	}
	return reportRecord(stdout, stderr, outs, batch, f.asJSON, m.Out)
}
