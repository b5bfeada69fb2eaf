package record

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/atomicfile"
)

// manifestVersion is the version of the manifest format.
const manifestVersion = 1

// Manifest is what a submitted batch needs to be collected later, perhaps on another day
// and in another process: the target and, per custom id, the source case and sample. It
// holds no conversation: the source files are read again at collection, and their requests
// must hash to the keys recorded here.
type Manifest struct {
	Version  int    `json:"version"`
	ID       string `json:"id"`
	Provider string `json:"provider"`
	Model    string `json:"model"`
	// Endpoint is the base URL with its query values replaced (EndpointText);
	// EndpointRedacted says that they were, so that collecting needs the -base-url again.
	Endpoint         string         `json:"endpoint,omitempty"`
	EndpointRedacted bool           `json:"endpoint_redacted,omitempty"`
	Params           Params         `json:"params"`
	Reason           string         `json:"reason"`
	Out              string         `json:"out"`
	Submitted        string         `json:"submitted"`
	Items            []ManifestItem `json:"items"`
}

// ManifestItem maps one custom id of a batch to the case it records.
type ManifestItem struct {
	CustomID string `json:"custom_id"`
	// Source is the source case's file, SourceID its id.
	Source   string `json:"source"`
	SourceID string `json:"source_id"`
	Sample   int    `json:"sample"`
	// Key is the request's cache key; ID the new case's id.
	Key string `json:"key"`
	ID  string `json:"id"`
}

// ManifestPath returns the manifest file of batch id in a cache folder.
func ManifestPath(cacheDir, id string) string {
	return filepath.Join(cacheDir, "batches", safeID(id, "batch")+".json")
}

// ReadManifest reads the manifest of batch id from a cache folder.
func ReadManifest(cacheDir, id string) (*Manifest, error) {
	path := ManifestPath(cacheDir, id)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("no manifest for batch %s at %s: was it submitted with this -cache?", id, path)
	}
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("read manifest %s: %w", path, err)
	}
	if m.Version != manifestVersion {
		return nil, fmt.Errorf("read manifest %s: version %d, this compacteval reads %d", path, m.Version, manifestVersion)
	}
	return &m, nil
}

// Submit records from the cache what it can, and sends the other jobs as one batch. It
// returns the batch's manifest (nil when nothing was left to send), already written to the
// cache folder, and the outcomes of the jobs done without the batch.
func (r *Recorder) Submit(ctx context.Context, t Target, jobs []Job) (*Manifest, []Outcome, error) {
	if r.Cache == nil {
		return nil, nil, errors.New("a batch needs a cache folder for its manifest")
	}
	var done []Outcome
	var items []BatchItem
	m := &Manifest{
		Version: manifestVersion, Provider: t.Provider, Model: t.Model,
		Params: t.Params, Reason: string(t.Reason), Out: t.Out, Submitted: r.today(),
	}
	if t.Endpoint != "" {
		m.Endpoint = EndpointText(t.Endpoint)
		m.EndpointRedacted = m.Endpoint != t.Endpoint
	}
	for i := range jobs {
		job := &jobs[i]
		if o, ok := existing(job); ok {
			done = append(done, o)
			continue
		}
		if resp, err := r.Cache.Get(job.Request); err == nil {
			done = append(done, r.write(job, StatusReplayed, resp))
			continue
		} else if !errors.Is(err, ErrCacheMiss) {
			return nil, done, err
		}
		id := fmt.Sprintf("r%05d", len(items))
		items = append(items, BatchItem{CustomID: id, Request: job.Request})
		m.Items = append(m.Items, ManifestItem{
			CustomID: id, Source: job.Source.File, SourceID: job.Source.ID,
			Sample: job.Request.Sample, Key: job.Request.Key(), ID: job.ID,
		})
	}
	if len(items) == 0 {
		return nil, done, nil
	}
	retry := r.Retry
	retry.RateLimitsOnly = true
	err := retry.Do(ctx, func(ctx context.Context) error {
		var err error
		m.ID, err = r.Provider.Submit(ctx, items)
		return err
	})
	if err != nil {
		return nil, done, r.Clean(fmt.Errorf("submit batch: %w", err))
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, done, err
	}
	if err := atomicfile.Write(ManifestPath(r.Cache.Dir, m.ID), append(data, '\n'), 0o644); err != nil {
		return nil, done, fmt.Errorf("batch %s was submitted but its manifest was not written: %w", m.ID, err)
	}
	return m, done, nil
}

// Collect fetches a batch's results and writes a case per answer, caching each first. It
// returns the batch's status and, once the batch has ended, an outcome per manifest item.
// Collecting again is safe: existing case files are left alone.
func (r *Recorder) Collect(ctx context.Context, m *Manifest) (string, []Outcome, error) {
	t := Target{Provider: m.Provider, Model: m.Model, Params: m.Params, Reason: compact.Reason(m.Reason),
		Out: m.Out, Endpoint: m.Endpoint, Secrets: r.Secrets}
	return r.collect(ctx, m, t.manifestJob)
}

// CollectJobs is Collect for a caller that rebuilds the jobs itself (compacteval review,
// whose instructions are not the seed's): each manifest item is matched to the job of
// jobs with its cache key. An item with no such job fails.
func (r *Recorder) CollectJobs(ctx context.Context, m *Manifest, jobs []Job) (string, []Outcome, error) {
	byKey := map[string]*Job{}
	for i := range jobs {
		byKey[jobs[i].Request.Key()] = &jobs[i]
	}
	return r.collect(ctx, m, func(it ManifestItem) (*Job, error) {
		j, ok := byKey[it.Key]
		if !ok {
			return nil, fmt.Errorf("%s: no input of this run sends the request the batch holds (key %.12s)", it.ID, it.Key)
		}
		return j, nil
	})
}

func (r *Recorder) collect(ctx context.Context, m *Manifest, jobOf func(ManifestItem) (*Job, error)) (string, []Outcome, error) {
	var res *BatchResults
	ctx = withAnswers(ctx, len(m.Items))
	err := r.Retry.Do(ctx, func(ctx context.Context) error {
		var err error
		res, err = r.Provider.Collect(ctx, m.ID)
		return err
	})
	if err != nil {
		return "", nil, r.Clean(fmt.Errorf("collect batch %s: %w", m.ID, err))
	}
	if !res.Done {
		return res.Status, nil, nil
	}
	var out []Outcome
	for _, it := range m.Items {
		job, err := jobOf(it)
		if err != nil {
			out = append(out, Outcome{Job: &Job{Recording: Recording{ID: it.ID}}, Status: StatusFailed, Err: err})
			continue
		}
		if o, ok := existing(job); ok {
			out = append(out, o)
			continue
		}
		resp, ok := res.Results[it.CustomID]
		if !ok {
			why := res.Errors[it.CustomID]
			if why == "" {
				why = "no result in the batch"
			}
			out = append(out, Outcome{Job: job, Status: StatusFailed, Err: fmt.Errorf("%s: %s", it.CustomID, why)})
			continue
		}
		r.finish(resp)
		if err := r.Cache.Put(job.Request, resp); err != nil {
			out = append(out, Outcome{Job: job, Status: StatusFailed, Response: resp, Err: err})
			continue
		}
		out = append(out, r.write(job, StatusRecorded, resp))
	}
	for i := range out {
		out[i].Err = r.Clean(out[i].Err)
	}
	return res.Status, out, nil
}

// manifestJob rebuilds the job of a manifest item from its source file, and checks that
// the source still gives the request that was sent.
func (t Target) manifestJob(it ManifestItem) (*Job, error) {
	src, err := corpus.ReadFile(it.Source, it.SourceID)
	if err != nil {
		return nil, fmt.Errorf("source of %s: %w", it.ID, err)
	}
	req, err := NewRequest(src, t.Provider, t.Model, t.Params, t.Reason, it.Sample, t.Secrets...)
	if err != nil {
		return nil, err
	}
	job, err := t.job(src, req)
	if err != nil {
		return nil, err
	}
	if job.Request.Key() != it.Key {
		return nil, fmt.Errorf("%s changed since the batch was submitted: its request no longer matches the one sent", it.Source)
	}
	if job.ID != it.ID {
		return nil, fmt.Errorf("%s: the case id is now %s, the manifest says %s", it.Source, job.ID, it.ID)
	}
	return &job, nil
}

func (r *Recorder) today() string {
	now := time.Now
	if r.Now != nil {
		now = r.Now
	}
	return now().UTC().Format(time.DateOnly)
}
