package recordtest

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"strings"
)

// ParityFixture is one conversation sent through a model SDK's client, as
// internal/record/sdkparity records it (make sdk-parity) for record's
// TestProvidersSendWhatTheSDKClientsSend: the provider's Send, then a batch of two items
// (c1 the request, c2 the request for MissingModel) submitted and collected, every HTTP
// exchange in order, and what the SDK-based provider made of the answers.
type ParityFixture struct {
	Provider string `json:"provider"`
	// BaseURL is empty for the provider's own host.
	BaseURL string `json:"base_url,omitempty"`
	APIKey  string `json:"api_key"`
	// Env is set while the requests are made: the variables the SDKs read.
	Env map[string]string `json:"env"`
	// Request is the record.Request sent, as JSON.
	Request   json.RawMessage `json:"request"`
	Exchanges []Exchange      `json:"exchanges"`
	// Response is the record.Response of Send; BatchID what Submit returned; Batch the
	// record.BatchResults of Collect.
	Response json.RawMessage `json:"response"`
	BatchID  string          `json:"batch_id"`
	Batch    json.RawMessage `json:"batch"`
}

// MissingModel is the model of a parity batch's second item, which no script answers.
const MissingModel = "missing-model"

// Exchange is one HTTP request and its answer.
type Exchange struct {
	Method string      `json:"method"`
	URL    string      `json:"url"`
	Header http.Header `json:"header"`
	// Body is the request body, with a multipart boundary replaced by Boundary.
	Body           string      `json:"body"`
	Status         int         `json:"status"`
	ResponseHeader http.Header `json:"response_header"`
	ResponseBody   string      `json:"response_body"`
}

// Boundary stands for a multipart body's random boundary in an Exchange.
const Boundary = "BOUNDARY"

// ReadExchange reads r's method, URL, headers and body (which it puts back), without
// Content-Length (the transport's) and with a multipart boundary replaced by Boundary.
func ReadExchange(r *http.Request) (Exchange, error) {
	e := Exchange{Method: r.Method, URL: r.URL.String(), Header: r.Header.Clone()}
	e.Header.Del("Content-Length")
	if r.Body != nil {
		data, err := io.ReadAll(r.Body)
		r.Body.Close()
		if err != nil {
			return e, err
		}
		r.Body = io.NopCloser(bytes.NewReader(data))
		e.Body = string(data)
	}
	if mt, params, err := mime.ParseMediaType(e.Header.Get("Content-Type")); err == nil && params["boundary"] != "" {
		e.Header.Set("Content-Type", mime.FormatMediaType(mt, map[string]string{"boundary": Boundary}))
		e.Body = strings.ReplaceAll(e.Body, params["boundary"], Boundary)
	}
	return e, nil
}
