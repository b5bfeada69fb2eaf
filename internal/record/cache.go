package record

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/compacteval/compacteval/internal/atomicfile"
)

// DefaultCacheDir is where compacteval record keeps answers unless told otherwise; it is
// not committed.
const DefaultCacheDir = ".compacteval/cache"

// Cache keeps every answer under the key of its request (Request.Key), one JSON file each,
// so that a rerun replays instead of calling the model. Entries hold redacted answers only,
// never a key or a header.
type Cache struct {
	Dir string
}

// ErrCacheMiss is returned by Get when no answer is cached for a key.
var ErrCacheMiss = errors.New("not in the replay cache")

// cacheEntry is one cache file: the answer, with what it answered for a reader of the file.
type cacheEntry struct {
	Key        string         `json:"key"`
	Provider   string         `json:"provider"`
	Model      string         `json:"model"`
	Parameters map[string]any `json:"parameters"`
	Sample     int            `json:"sample"`
	Response   *Response      `json:"response"`
}

// path returns the file of a key, in a folder named by its first two digits so that no
// folder grows too large.
func (c *Cache) path(key string) string {
	return filepath.Join(c.Dir, key[:2], key+".json")
}

// Get returns the cached answer to req, or ErrCacheMiss.
func (c *Cache) Get(req *Request) (*Response, error) {
	key := req.Key()
	path := c.path(key)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrCacheMiss
	}
	if err != nil {
		return nil, fmt.Errorf("read cache: %w", err)
	}
	var e cacheEntry
	if err := json.Unmarshal(data, &e); err != nil {
		return nil, fmt.Errorf("read cache %s: %w", path, err)
	}
	if e.Key != key || e.Response == nil {
		return nil, fmt.Errorf("read cache %s: the entry is for key %.12s, not %.12s", path, e.Key, key)
	}
	if err := CheckUsage(e.Response.Usage); err != nil {
		return nil, fmt.Errorf("read cache %s: %w", path, err)
	}
	return e.Response, nil
}

// CheckWritable returns an error if answers cannot be kept in the cache: its folder cannot
// be made or written (a read-only -cache). Call it before paying for an answer.
func (c *Cache) CheckWritable() error {
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return fmt.Errorf("the cache %s cannot keep answers: %w", c.Dir, err)
	}
	f, err := os.CreateTemp(c.Dir, ".writable-*")
	if err != nil {
		return fmt.Errorf("the cache %s cannot keep answers: %w", c.Dir, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// Put stores the answer to req, replacing any earlier one atomically.
func (c *Cache) Put(req *Request, resp *Response) error {
	key := req.Key()
	data, err := json.MarshalIndent(cacheEntry{
		Key: key, Provider: req.Provider, Model: req.Model, Parameters: req.Params.Map(),
		Sample: req.Sample, Response: resp,
	}, "", "  ")
	if err != nil {
		return fmt.Errorf("write cache: %w", err)
	}
	return atomicfile.Write(c.path(key), append(data, '\n'), 0o644)
}
