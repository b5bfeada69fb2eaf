package corpus

import "testing"

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"qwen2.5:0.5b":                 "qwen2-5-0-5b",
		"claude-sonnet-4-5":            "claude-sonnet-4-5",
		"meta-llama/Llama-3.2-1B-Inst": "meta-llama-llama-3-2-1b-inst",
		"::":                           "model",
		"hf.co/bartowski/Some_Model-GGUF:Q4_K_M-and-a-very-long-suffix": "hf-co-bartowski-some-model-gguf-q4-k-m-and-a-ver",
	} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}
