package record

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/compacteval/compacteval/internal/buildinfo"
	"github.com/compacteval/compacteval/internal/redact"
)

// client is the HTTP plumbing both providers share, in place of the SDKs' clients: it
// sends one request to a path under the base URL with the API's headers, turns an HTTP
// error answer into a *StatusError and bounds every other body. It makes no retry
// (Retry.Do does) and reads no environment (the OpenAI provider reads the variables the
// OpenAI SDK read, once, in newOpenAI).
//
// What it sends is held to what the SDKs sent by TestProvidersSendWhatTheSDKClientsSend
// (docs/testing.md, "The providers without SDKs").
type client struct {
	provider string
	// base's path ends in "/" (or is empty); a path is resolved against it, so a query
	// in the base URL is not sent (the SDKs did not send it either).
	base *url.URL
	// header is sent with every request: the API version, the key, the provider's extra
	// headers. Accept and Content-Type are per request.
	header http.Header
	http   *http.Client
	limit  int64
	// heldKey is removed from the text of an error answer, even where it is not sent.
	heldKey string
}

// userAgent names compacteval and its version: the SDKs' own User-Agent and X-Stainless-*
// headers describe an SDK that is no longer sending.
func userAgent() string { return "compacteval/" + buildinfo.Version() }

func newClient(provider, base string, header http.Header, cfg Config) *client {
	u, err := url.Parse(base)
	if err != nil {
		panic("record: base URL checked by New does not parse: " + err.Error())
	}
	if u.Path != "" && !strings.HasSuffix(u.Path, "/") {
		u.Path += "/" // as the SDKs did: a path is resolved below the base's, not beside it
	}
	header.Set("User-Agent", userAgent())
	return &client{provider: provider, base: u, header: header, http: cfg.HTTPClient, limit: cfg.MaxResponseBytes, heldKey: cfg.heldKey}
}

// do sends method path with body (nil for none) and returns the answer, whose body the
// caller closes. An answer of 400 or more is a *StatusError.
func (c *client) do(ctx context.Context, method, path string, body []byte, contentType, accept string) (*http.Response, error) {
	u, err := c.base.Parse(strings.TrimLeft(path, "/"))
	if err != nil {
		return nil, err
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return nil, err
	}
	for k, vs := range c.header {
		req.Header[k] = append([]string(nil), vs...)
	}
	if body != nil {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Accept", accept)
	res, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	if res.StatusCode >= 400 {
		return nil, c.statusError(req, res)
	}
	limitBody(req, res, c.limit)
	return res, nil
}

// statusError reads an error answer into a *StatusError, so that both APIs and every
// OpenAI-compatible server (whose error bodies differ) give the same errors, with the
// retry-after header at hand. The key is removed from what the answer says (a server may
// echo it), and query values from its URL.
func (c *client) statusError(req *http.Request, res *http.Response) error {
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
	e := &StatusError{Provider: c.provider, Status: res.StatusCode, URL: urlText(req.URL)}
	e.Type, e.Message = errorBody(body)
	e.Type, _ = redact.Literals(e.Type, c.heldKey)
	e.Message, _ = redact.Literals(e.Message, c.heldKey)
	e.RetryAfter, e.HasRetryAfter = retryAfter(res.Header, time.Now())
	return e
}

// postJSON sends in as a JSON body and decodes the answer into out. escapeHTML says
// whether <, > and & are escaped in strings, which Anthropic's SDK did and OpenAI's did
// not.
func (c *client) postJSON(ctx context.Context, path string, in any, escapeHTML bool, out any) error {
	body, err := marshalJSON(in, escapeHTML)
	if err != nil {
		return err
	}
	res, err := c.do(ctx, http.MethodPost, path, body, "application/json", "application/json")
	if err != nil {
		return err
	}
	return c.decode(res, out)
}

// getJSON decodes the answer to GET path into out.
func (c *client) getJSON(ctx context.Context, path string, out any) error {
	res, err := c.do(ctx, http.MethodGet, path, nil, "", "application/json")
	if err != nil {
		return err
	}
	return c.decode(res, out)
}

func (c *client) decode(res *http.Response, out any) error {
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, out); err != nil {
		if res.Request != nil {
			return fmt.Errorf("%s: decode the answer from %s: %w", c.provider, urlText(res.Request.URL), err)
		}
		return fmt.Errorf("%s: decode the answer: %w", c.provider, err)
	}
	return nil
}

// marshalJSON is json.Marshal, with <, > and & left as they are unless escapeHTML.
func marshalJSON(v any, escapeHTML bool) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(escapeHTML)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
