package corpus_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/compacteval/compacteval/corpus"
)

// BenchmarkLoad1000 loads 1,000 case files: the bundled cases copied under new ids until
// there are 1,000. go test -run '^$' -bench Load ./corpus
func BenchmarkLoad1000(b *testing.B) {
	files, err := filepath.Glob(filepath.Join(casesDir, "*", "*.yaml"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no case files: %v", err)
	}
	dir := b.TempDir()
	var bytes int64
	for i := 0; i < 1000; i++ {
		src := files[i%len(files)]
		c, err := corpus.ReadFile(src, "")
		if err != nil {
			b.Fatal(err)
		}
		c.ID = fmt.Sprintf("%s/copy-%04d", c.Categories[0], i)
		data, err := corpus.Format(c)
		if err != nil {
			b.Fatal(err)
		}
		dst := filepath.Join(dir, filepath.FromSlash(c.ID)+".yaml")
		os.MkdirAll(filepath.Dir(dst), 0o755)
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			b.Fatal(err)
		}
		bytes += int64(len(data))
	}
	b.SetBytes(bytes)
	b.ResetTimer()
	for b.Loop() {
		cases, err := corpus.Load(dir)
		if err != nil || len(cases) != 1000 {
			b.Fatalf("Load = %d cases, %v", len(cases), err)
		}
	}
}
