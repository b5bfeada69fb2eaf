package protocol

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestAnswerBounded: a process that answers with a line over MaxAnswerBytes (a 60 MB
// answer made a 63 MB report.json) fails with a protocol error; one just under is read.
func TestAnswerBounded(t *testing.T) {
	for _, tc := range []struct {
		name string
		size int // bytes of summary
		want string
	}{
		{name: "under the limit", size: MaxAnswerBytes - 100},
		{name: "over the limit", size: MaxAnswerBytes + 1, want: fmt.Sprintf("protocol error at stdout line 1: an answer longer than %d MiB", MaxAnswerBytes>>20)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			script := fmt.Sprintf(`IFS= read -r l; id=${l#'{"id":'}; id=${id%%%%,*}; printf '{"id":%%s,"summary":"' "$id"; head -c %d /dev/zero | tr '\0' a; printf '"}\n'; cat >/dev/null`, tc.size)
			c, err := StartWith(context.Background(), []string{"sh", "-c", script}, StartOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Kill()
			resp, err := c.Do(Request{Op: "extract", Text: Str("x")})
			var pe *ProtocolError
			switch {
			case tc.want == "" && (err != nil || resp.Summary == nil || len(*resp.Summary) != tc.size):
				t.Errorf("an answer of %d bytes: %v, want it read", tc.size, err)
			case tc.want != "" && (!errors.As(err, &pe) || !strings.HasPrefix(err.Error(), tc.want)):
				t.Errorf("an answer of %d bytes: %v, want %q", tc.size, err, tc.want)
			}
		})
	}
}
