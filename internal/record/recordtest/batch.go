package recordtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Batches are answered when they are created, through the same scripts as single calls;
// Get reports them in progress PendingPolls times, then ended.

func (s *Server) newID(prefix string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fmt.Sprintf("%s%d", prefix, len(s.batches)+len(s.files)+1)
}

func (s *Server) anthropicBatch(w http.ResponseWriter, body map[string]any) {
	reqs, _ := body["requests"].([]any)
	var results bytes.Buffer
	enc := json.NewEncoder(&results)
	for _, r := range reqs {
		item, _ := r.(map[string]any)
		params, _ := item["params"].(map[string]any)
		model, _ := params["model"].(string)
		line := map[string]any{"custom_id": item["custom_id"]}
		rep, ok := s.next(model, marshal(params))
		if !ok {
			rep = notFound(model, true)
		}
		if rep.Status != 0 && rep.Status != http.StatusOK {
			line["result"] = map[string]any{"type": "errored", "error": errorBody(true, rep)}
		} else {
			line["result"] = map[string]any{"type": "succeeded", "message": answer(model, params, rep, true)}
		}
		enc.Encode(line)
	}
	id := s.newID("msgbatch_")
	s.mu.Lock()
	s.batches[id] = &batch{anthropic: true, results: results.Bytes()}
	s.mu.Unlock()
	writeJSON(w, anthropicBatchJSON(id, "in_progress"))
}

func anthropicBatchJSON(id, status string) map[string]any {
	return map[string]any{
		"id": id, "type": "message_batch", "processing_status": status,
		"request_counts": map[string]any{"processing": 0, "succeeded": 0, "errored": 0, "canceled": 0, "expired": 0},
		"created_at":     "2025-01-01T00:00:00Z", "expires_at": "2025-01-02T00:00:00Z",
	}
}

func (s *Server) anthropicBatchGet(w http.ResponseWriter, rest string) {
	id, results := strings.CutSuffix(rest, "/results")
	b, status := s.poll(id, !results)
	if b == nil {
		writeError(w, true, Reply{Status: http.StatusNotFound, ErrType: "not_found_error", ErrMessage: "no batch " + id})
		return
	}
	if results {
		w.Header().Set("Content-Type", "application/x-jsonl")
		w.Write(b.results)
		return
	}
	if status == "done" {
		status = "ended"
	}
	writeJSON(w, anthropicBatchJSON(id, status))
}

// poll returns a batch and "in_progress" or "done", counting the poll when count is set.
func (s *Server) poll(id string, count bool) (*batch, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.batches[id]
	if b == nil {
		return nil, ""
	}
	if b.polls < s.PendingPolls {
		if count {
			b.polls++
		}
		return b, "in_progress"
	}
	return b, "done"
}

func (s *Server) upload(w http.ResponseWriter, r *http.Request) {
	f, _, err := r.FormFile("file")
	if err != nil {
		writeError(w, false, Reply{Status: http.StatusBadRequest, ErrType: "invalid_request_error", ErrMessage: err.Error()})
		return
	}
	data, _ := io.ReadAll(f)
	if r.FormValue("purpose") != "batch" {
		writeError(w, false, Reply{Status: http.StatusBadRequest, ErrType: "invalid_request_error", ErrMessage: "purpose must be batch"})
		return
	}
	id := s.newID("file-")
	s.mu.Lock()
	s.files[id] = data
	s.mu.Unlock()
	writeJSON(w, map[string]any{"id": id, "object": "file", "bytes": len(data), "created_at": 0, "filename": "batch.jsonl", "purpose": "batch", "status": "processed"})
}

func (s *Server) fileContent(w http.ResponseWriter, id string) {
	s.mu.Lock()
	data, ok := s.files[id]
	s.mu.Unlock()
	if !ok {
		writeError(w, false, Reply{Status: http.StatusNotFound, ErrType: "invalid_request_error", ErrMessage: "no file " + id})
		return
	}
	w.Write(data)
}

func (s *Server) openaiBatch(w http.ResponseWriter, body map[string]any) {
	in, _ := body["input_file_id"].(string)
	s.mu.Lock()
	input, ok := s.files[in]
	s.mu.Unlock()
	if !ok || body["endpoint"] != "/v1/chat/completions" || body["completion_window"] != "24h" {
		writeError(w, false, Reply{Status: http.StatusBadRequest, ErrType: "invalid_request_error", ErrMessage: fmt.Sprintf("bad batch request %v", body)})
		return
	}
	var output, errs bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(input))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var line struct {
			CustomID string          `json:"custom_id"`
			Raw      json.RawMessage `json:"body"`
			Body     map[string]any  `json:"-"`
		}
		json.Unmarshal(sc.Bytes(), &line)
		json.Unmarshal(line.Raw, &line.Body)
		model, _ := line.Body["model"].(string)
		rep, ok := s.next(model, func() []byte { return line.Raw })
		if !ok {
			rep = notFound(model, false)
		}
		out := map[string]any{"id": "batch_req_" + line.CustomID, "custom_id": line.CustomID, "error": nil}
		if rep.Status != 0 && rep.Status != http.StatusOK {
			out["response"] = map[string]any{"status_code": rep.Status, "body": errorBody(false, rep)}
			json.NewEncoder(&errs).Encode(out)
			continue
		}
		out["response"] = map[string]any{"status_code": 200, "body": answer(model, line.Body, rep, false)}
		json.NewEncoder(&output).Encode(out)
	}
	outID, errID := s.newID("file-out-"), ""
	s.mu.Lock()
	s.files[outID] = output.Bytes()
	if errs.Len() > 0 {
		errID = fmt.Sprintf("file-err-%d", len(s.files)+1)
		s.files[errID] = errs.Bytes()
	}
	id := fmt.Sprintf("batch_%d", len(s.batches)+1)
	s.batches[id] = &batch{output: outID, errors: errID}
	s.mu.Unlock()
	writeJSON(w, openaiBatchJSON(id, in, "validating", nil))
}

func openaiBatchJSON(id, input, status string, b *batch) map[string]any {
	m := map[string]any{
		"id": id, "object": "batch", "endpoint": "/v1/chat/completions", "input_file_id": input,
		"completion_window": "24h", "status": status, "created_at": 0,
	}
	if b != nil {
		m["output_file_id"] = b.output
		if b.errors != "" {
			m["error_file_id"] = b.errors
		}
	}
	return m
}

func (s *Server) openaiBatchGet(w http.ResponseWriter, id string) {
	b, status := s.poll(id, true)
	if b == nil {
		writeError(w, false, Reply{Status: http.StatusNotFound, ErrType: "invalid_request_error", ErrMessage: "no batch " + id})
		return
	}
	if status == "done" {
		writeJSON(w, openaiBatchJSON(id, "", "completed", b))
		return
	}
	writeJSON(w, openaiBatchJSON(id, "", status, nil))
}

// marshal returns a function that gives v as JSON, for Respond.
func marshal(v map[string]any) func() []byte {
	return func() []byte {
		data, _ := json.Marshal(v)
		return data
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}
