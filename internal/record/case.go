package record

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
)

// Unreviewed is the phrase a recorded case's notes carry until a person has judged its
// intended summary and summary_flaws; grep for it to find the cases still to review.
const Unreviewed = corpus.Unreviewed

// CaseID returns the id of sample n of source recorded from model: the source's folder,
// then <source name>-<provider>-<model slug>-<n>, so that recordings sort beside their
// source. The id is the file's path below the cases root, without .yaml.
func CaseID(source *corpus.Case, provider, model string, sample int) string {
	folder := source.Categories[0]
	name := strings.TrimPrefix(source.ID, folder+"/")
	return fmt.Sprintf("%s/%s-%s-%s-%d", folder, name, provider, corpus.Slug(model), sample)
}

// CasePath returns the file of case id below root.
func CasePath(root, id string) string {
	return filepath.Join(root, filepath.FromSlash(id)+".yaml")
}

// Recording is what NewCase needs besides the answer.
type Recording struct {
	Source  *corpus.Case
	Request *Request
	// ID is the new case's id (CaseID).
	ID string
	// Endpoint is the base URL the answer came from, empty for the provider's own API. The
	// notes show it without its query values (EndpointText).
	Endpoint string
}

// NewCase returns the case for an answer, in canonical YAML and parsed back: origin
// recorded with the model, provider, date, instruction hash, parameters, stop reason,
// truncation and usage; the redacted conversation, kept tail and the source's probes;
// intended set from the robust extractor and every other extractor's difference from it
// listed in known_deviations, all marked Unreviewed in the notes. The file is checked
// as corpus lint checks it, so a case that would not lint is an error here, not a file.
func NewCase(rec Recording, resp *Response) (*corpus.Case, []byte, error) {
	src, req := rec.Source, rec.Request
	model := req.Model
	if resp.Model != "" {
		model = resp.Model
	}
	c := &corpus.Case{
		Version:    corpus.Version,
		ID:         rec.ID,
		Title:      fmt.Sprintf("%s compacts %s, sample %d", model, strings.TrimPrefix(src.ID, src.Categories[0]+"/"), req.Sample),
		Categories: slices.Clone(src.Categories),
		Notes:      notes(rec, resp, model),
		Origin: corpus.Origin{
			Kind:              corpus.Recorded,
			DerivedFrom:       src.ID,
			Model:             model,
			Provider:          req.Provider,
			Date:              resp.Date,
			InstructionSHA256: req.InstructionSHA256(),
			Parameters:        req.Params.Map(),
			StopReason:        resp.StopReason,
			Truncated:         resp.Truncated,
		},
		Response:     resp.Text,
		Conversation: req.Messages,
		KeptTail:     src.KeptTail,
		SummaryFlaws: []string{},
	}
	if len(resp.Usage) > 0 {
		c.Origin.Usage = resp.Usage
	}
	if resp.Truncated && !c.HasCategory("truncated") {
		c.Categories = append(c.Categories, "truncated")
	}
	if strings.TrimSpace(resp.Text) == "" && !c.HasCategory("empty-and-degenerate") {
		c.Categories = append(c.Categories, "empty-and-degenerate")
	}
	for _, p := range src.Probes {
		// A probe whose fact was redacted away would no longer lint.
		if p.Message < len(req.Messages) && strings.Contains(strings.ToLower(messageText(req.Messages[p.Message])), strings.ToLower(p.Fact)) {
			c.Probes = append(c.Probes, p)
		}
	}
	corpus.SetIntended(c)

	data, err := corpus.Format(c)
	if err != nil {
		return nil, nil, err
	}
	back, err := corpus.Parse(c.ID+".yaml", data, c.ID)
	if err != nil {
		return nil, nil, fmt.Errorf("recorded case %s does not check out:\n%w", c.ID, err)
	}
	if ps := corpus.CheckDeviations(back, compact.Extractors()); len(ps) > 0 {
		return nil, nil, fmt.Errorf("recorded case %s does not check out:\n%w", c.ID, ps)
	}
	return back, data, nil
}

func notes(rec Recording, resp *Response, model string) string {
	req := rec.Request
	var b strings.Builder
	fmt.Fprintf(&b, "Recorded: %s", model)
	if model != req.Model {
		fmt.Fprintf(&b, " (asked for %s)", req.Model)
	}
	fmt.Fprintf(&b, " through the %s API", req.Provider)
	if rec.Endpoint != "" {
		fmt.Fprintf(&b, " at %s", EndpointText(rec.Endpoint))
	}
	fmt.Fprintf(&b, " answered the compaction instruction for the conversation of %s (sample %d", rec.Source.ID, req.Sample)
	if rec.Source.KeptTail > 0 {
		fmt.Fprintf(&b, ", kept tail %d", rec.Source.KeptTail)
	}
	fmt.Fprintf(&b, "). Intended is %s's extraction and summary_flaws is empty, both %s: judge them, then move the case into corpus/cases.", corpus.StandIn, Unreviewed)
	if resp.Truncated {
		fmt.Fprintf(&b, " The answer was cut at the token limit (stop reason %s).", resp.StopReason)
	}
	if strings.TrimSpace(resp.Text) == "" {
		b.WriteString(" The answer holds no text")
		if resp.Thinking > 0 {
			fmt.Fprintf(&b, ", only thinking (%d blocks)", resp.Thinking)
		}
		b.WriteString(".")
	} else if resp.Thinking > 0 {
		fmt.Fprintf(&b, " The model also thought (%d blocks, not part of the response).", resp.Thinking)
	}
	if resp.ToolCalls > 0 {
		fmt.Fprintf(&b, " The model called tools %d times although the instruction forbids it.", resp.ToolCalls)
	}
	if req.Redacted > 0 || resp.Redacted > 0 {
		fmt.Fprintf(&b, " Secrets redacted: %d in the conversation, %d in the response.", req.Redacted, resp.Redacted)
	}
	return b.String()
}

// messageText is a message's text with its tool calls, as corpus checks probes against it.
func messageText(m corpus.Message) string {
	s := m.Text
	for _, tc := range m.ToolCalls {
		s += "\n" + tc.Name + " " + tc.Input
	}
	return s
}
