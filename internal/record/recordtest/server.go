// Package recordtest is a fake model server for tests: one httptest server on the loopback
// interface that speaks Anthropic's Messages and Message Batches API and OpenAI's chat
// completions, Files and Batch API, with replies scripted per model name.
//
// A model with no script answers 404 "model not found", in the format of the API asked.
// Anthropic clients use the server's URL as base URL, OpenAI clients URL + "/v1".
package recordtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Reply is one scripted answer.
type Reply struct {
	// Status is the HTTP status; 0 means 200.
	Status int
	// RetryAfter is sent as the retry-after header when set.
	RetryAfter string
	// ErrType and ErrMessage make the error body of a non-200 reply.
	ErrType, ErrMessage string
	// Text is the answer. Texts, when set, are separate text blocks (Anthropic) or joined
	// (OpenAI) instead.
	Text  string
	Texts []string
	// Thinking adds a thinking block (Anthropic) or a reasoning_content field (OpenAI).
	Thinking string
	// Truncated stops the answer at max_tokens (finish_reason length for OpenAI).
	Truncated bool
	// ToolCall adds a tool call to the answer.
	ToolCall bool
	// PromptTokens, when set, is the input token count reported (a server whose context
	// window cut the prompt reports few); else the body's size / 4.
	PromptTokens int
}

// Request is one request the server received.
type Request struct {
	Method, Path string
	// Auth is the Authorization header, or x-api-key when that is what came.
	Auth string
	Body map[string]any
}

// Server is the fake. Set Key to require that API key (sent as a bearer token or
// x-api-key); PendingPolls makes a batch answer "in progress" that many times first.
// Respond, when set, answers every model that has no script, from the JSON body of the
// request (a message request's as sent, or one item's of a batch): a FakeModel's Reply.
type Server struct {
	*httptest.Server
	Key          string
	PendingPolls int
	Respond      func(body []byte) Reply

	mu       sync.Mutex
	scripts  map[string][]Reply
	calls    map[string]int
	requests []Request
	files    map[string][]byte
	batches  map[string]*batch
}

type batch struct {
	anthropic bool
	polls     int
	results   []byte // Anthropic: the JSONL results
	output    string // OpenAI: output and error file ids
	errors    string
}

// NewServer starts a server that t closes at its end.
func NewServer(t testing.TB) *Server {
	s := Start()
	t.Cleanup(s.Close)
	return s
}

// Start starts a server that the caller closes (a testscript command's, say).
func Start() *Server {
	s := &Server{scripts: map[string][]Reply{}, calls: map[string]int{}, files: map[string][]byte{}, batches: map[string]*batch{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Script sets the replies of a model: the n-th call gets the n-th reply, and calls after
// the last get the last one.
func (s *Server) Script(model string, replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scripts[model] = replies
}

// Calls returns how many requests named model (batch items included).
func (s *Server) Calls(model string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[model]
}

// Requests returns every request received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// OpenAIURL is the base URL for OpenAI clients.
func (s *Server) OpenAIURL() string { return s.URL + "/v1" }

// next returns the reply to a request for model, and false where nothing answers that
// model; raw gives the request's JSON body to Respond.
func (s *Server) next(model string, raw func() []byte) (Reply, bool) {
	s.mu.Lock()
	replies, ok := s.scripts[model]
	if !ok || len(replies) == 0 {
		respond := s.Respond
		if respond != nil {
			s.calls[model]++
		}
		s.mu.Unlock()
		if respond == nil {
			return Reply{}, false
		}
		return respond(raw()), true
	}
	defer s.mu.Unlock()
	n := s.calls[model]
	s.calls[model]++
	return replies[min(n, len(replies)-1)], true
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	req := Request{Method: r.Method, Path: r.URL.Path, Auth: r.Header.Get("Authorization")}
	if req.Auth == "" {
		req.Auth = r.Header.Get("X-Api-Key")
	}
	var raw []byte
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/") {
		raw, _ = io.ReadAll(r.Body)
		json.Unmarshal(raw, &req.Body)
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.mu.Unlock()

	anthropic := !strings.HasPrefix(r.URL.Path, "/v1/chat/") && !strings.HasPrefix(r.URL.Path, "/v1/files") && !strings.HasPrefix(r.URL.Path, "/v1/batches")
	if s.Key != "" && req.Auth != s.Key && req.Auth != "Bearer "+s.Key {
		writeError(w, anthropic, Reply{Status: http.StatusUnauthorized, ErrType: "authentication_error", ErrMessage: "invalid x-api-key"})
		return
	}
	path := r.URL.Path
	switch {
	case r.Method == http.MethodPost && path == "/v1/messages":
		s.reply(w, req.Body, raw, true)
	case r.Method == http.MethodPost && path == "/v1/chat/completions":
		s.reply(w, req.Body, raw, false)
	case r.Method == http.MethodPost && path == "/v1/messages/batches":
		s.anthropicBatch(w, req.Body)
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/v1/messages/batches/"):
		s.anthropicBatchGet(w, strings.TrimPrefix(path, "/v1/messages/batches/"))
	case r.Method == http.MethodPost && path == "/v1/files":
		s.upload(w, r)
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/v1/files/") && strings.HasSuffix(path, "/content"):
		s.fileContent(w, strings.TrimSuffix(strings.TrimPrefix(path, "/v1/files/"), "/content"))
	case r.Method == http.MethodPost && path == "/v1/batches":
		s.openaiBatch(w, req.Body)
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/v1/batches/"):
		s.openaiBatchGet(w, strings.TrimPrefix(path, "/v1/batches/"))
	default:
		writeError(w, anthropic, Reply{Status: http.StatusNotFound, ErrType: "not_found_error", ErrMessage: "no route " + r.Method + " " + path})
	}
}

// reply answers one message request.
func (s *Server) reply(w http.ResponseWriter, body map[string]any, raw []byte, anthropic bool) {
	model, _ := body["model"].(string)
	rep, ok := s.next(model, func() []byte { return raw })
	if !ok {
		rep = notFound(model, anthropic)
	}
	if rep.Status != 0 && rep.Status != http.StatusOK {
		if rep.RetryAfter != "" {
			w.Header().Set("Retry-After", rep.RetryAfter)
		}
		writeError(w, anthropic, rep)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(answer(model, body, rep, anthropic))
}

func notFound(model string, anthropic bool) Reply {
	if anthropic {
		return Reply{Status: http.StatusNotFound, ErrType: "not_found_error", ErrMessage: "model: " + model}
	}
	return Reply{Status: http.StatusNotFound, ErrType: "invalid_request_error", ErrMessage: fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", model)}
}

// answer returns the JSON body of a successful reply.
func answer(model string, body map[string]any, rep Reply, anthropic bool) map[string]any {
	texts := rep.Texts
	if texts == nil {
		texts = []string{rep.Text}
	}
	in, _ := json.Marshal(body["messages"])
	inTokens, outTokens := len(in)/4, len(strings.Join(texts, ""))/4
	if rep.PromptTokens > 0 {
		inTokens = rep.PromptTokens
	}
	if anthropic {
		var content []map[string]any
		if rep.Thinking != "" {
			content = append(content, map[string]any{"type": "thinking", "thinking": rep.Thinking, "signature": "sig"})
		}
		for _, t := range texts {
			if t != "" {
				content = append(content, map[string]any{"type": "text", "text": t})
			}
		}
		if rep.ToolCall {
			content = append(content, map[string]any{"type": "tool_use", "id": "toolu_1", "name": "bash", "input": map[string]any{"command": "ls"}})
		}
		stop := "end_turn"
		if rep.Truncated {
			stop = "max_tokens"
		}
		return map[string]any{
			"id": "msg_1", "type": "message", "role": "assistant", "model": model, "content": content,
			"stop_reason": stop, "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": inTokens, "output_tokens": outTokens},
		}
	}
	msg := map[string]any{"role": "assistant", "content": strings.Join(texts, "")}
	if rep.Thinking != "" {
		msg["reasoning_content"] = rep.Thinking
	}
	if rep.ToolCall {
		msg["tool_calls"] = []any{map[string]any{"id": "call_1", "type": "function", "function": map[string]any{"name": "bash", "arguments": `{"command":"ls"}`}}}
	}
	finish := "stop"
	if rep.Truncated {
		finish = "length"
	}
	return map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": inTokens, "completion_tokens": outTokens, "total_tokens": inTokens + outTokens},
	}
}

func errorBody(anthropic bool, rep Reply) map[string]any {
	if anthropic {
		return map[string]any{"type": "error", "error": map[string]any{"type": rep.ErrType, "message": rep.ErrMessage}}
	}
	return map[string]any{"error": map[string]any{"type": rep.ErrType, "message": rep.ErrMessage, "code": nil}}
}

func writeError(w http.ResponseWriter, anthropic bool, rep Reply) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(rep.Status)
	json.NewEncoder(w).Encode(errorBody(anthropic, rep))
}
