package protocol

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/compacteval/compacteval/compact"
)

// Serve answers the requests read from r on w until r ends, flushing after every answer so a
// caller can keep one process open. A request that cannot be parsed, or that lacks a field or
// has one of the wrong type, gets {"error": "..."} and the stream goes on. Serve returns an
// error only when reading r or writing w fails.
func Serve(r io.Reader, w io.Writer) error {
	in := bufio.NewReaderSize(r, 1<<16)
	out := bufio.NewWriterSize(w, 1<<16)
	for {
		line, err := in.ReadString('\n')
		if len(line) > 0 {
			if werr := serveLine(out, line); werr != nil {
				return werr
			}
		}
		if err == io.EOF {
			return out.Flush()
		}
		if err != nil {
			return fmt.Errorf("read request: %w", err)
		}
	}
}

func serveLine(out *bufio.Writer, line string) error {
	line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
	if compact.TrimJS(line) == "" {
		return nil
	}
	resp := Answer([]byte(line))
	b, err := marshalNoEscape(resp)
	if err != nil {
		return fmt.Errorf("encode answer: %w", err)
	}
	out.Write(b)
	out.WriteByte('\n')
	return out.Flush()
}

// Answer returns the answer to one request line, with the request's id when it has one
// (even when the rest of the request is wrong, so that the caller knows which failed).
func Answer(line []byte) Response {
	var head struct {
		ID json.RawMessage `json:"id"`
	}
	_ = json.Unmarshal(line, &head) // a line that is not JSON has no id; the next call says why
	var req Request
	if err := json.Unmarshal(line, &req); err != nil {
		resp := errorResponse(requestError(err))
		resp.ID = head.ID
		return resp
	}
	return AnswerRequest(req)
}

// requestError says a request's decoding error in the protocol's terms: a field of the
// wrong kind by its JSON name and kind ("field count is number 1.5, want an integer"),
// never the Go type that decodes it.
func requestError(err error) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Field == "" {
		return err
	}
	want := "an object"
	switch te.Type.Kind() {
	case reflect.String:
		want = "a string"
	case reflect.Bool:
		want = "true or false"
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Uint, reflect.Uint64, reflect.Uint32:
		want = "an integer"
	case reflect.Float64, reflect.Float32:
		want = "a number"
	case reflect.Slice, reflect.Array:
		want = "an array"
	}
	return fmt.Errorf("field %s is %s, want %s", te.Field, te.Value, want)
}

// AnswerRequest returns the answer to one decoded request, as Serve would write it.
func AnswerRequest(req Request) Response {
	resp, err := answer(req)
	if err != nil {
		resp = errorResponse(err)
	}
	resp.ID = req.ID
	return resp
}

func errorResponse(err error) Response {
	msg := err.Error()
	return Response{Error: &msg}
}

var errMissing = errors.New("missing field")

func need[T any](p *T, name string) (T, error) {
	if p == nil {
		var zero T
		return zero, fmt.Errorf("%w %q", errMissing, name)
	}
	return *p, nil
}

func answer(req Request) (Response, error) {
	switch req.Op {
	case "extract":
		text, err := need(req.Text, "text")
		if err != nil {
			return Response{}, err
		}
		name := "seed"
		if req.Profile != nil {
			name = *req.Profile
		}
		ex, ok := compact.Lookup(name)
		if !ok {
			return Response{}, fmt.Errorf("unknown profile %q (have %s)", name, strings.Join(compact.ExtractorNames(), ", "))
		}
		e := ex.Extract(text)
		resp := Response{HasSummary: true}
		if e.OK {
			resp.Summary = &e.Summary
		}
		return resp, nil
	case "instruction":
		reason, err := need(req.Reason, "reason")
		if err != nil {
			return Response{}, err
		}
		opts := compact.Options{Reason: compact.Reason(reason)}
		if req.CustomInstructions != nil {
			opts.CustomInstructions = *req.CustomInstructions
		}
		if kt := req.KeptTail; kt != nil {
			count, err := need(kt.Count, "keptTail.count")
			if err != nil {
				return Response{}, err
			}
			opts.KeptTail = compact.KeptTail{Count: count}
			if kt.Opening != nil {
				opts.KeptTail.Opening = *kt.Opening
			}
		}
		text := compact.BuildInstruction(opts)
		return Response{Text: &text}, nil
	case "keptTailNote":
		count, err := need(req.Count, "count")
		if err != nil {
			return Response{}, err
		}
		tail := compact.KeptTail{Count: count}
		if req.Opening != nil {
			tail.Opening = *req.Opening
		}
		text := compact.KeptTailNote(tail)
		return Response{Text: &text}, nil
	case "continuation":
		summary, err := need(req.Summary, "summary")
		if err != nil {
			return Response{}, err
		}
		path := ""
		if req.TranscriptPath != nil {
			path = *req.TranscriptPath
		}
		text := compact.ContinuationSummary(summary, path)
		return Response{Text: &text}, nil
	case "constants":
		n, instr := compact.MaxTokens, compact.Instruction
		return Response{MaxTokens: &n, Instruction: &instr}, nil
	default:
		op, _ := json.Marshal(req.Op)
		return Response{}, fmt.Errorf("unknown op %s", op)
	}
}

// marshalNoEscape is json.Marshal without the HTML escaping of <, > and &, which would make
// every tag in an answer unreadable.
func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
