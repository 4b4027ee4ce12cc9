package offload

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestTailLines(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	long := strings.Repeat("x", tailMaxBytes)
	for _, tc := range []struct {
		name, text string
		n          int
		want       []string
	}{
		{"empty", "", 3, nil},
		{"fewer", "a\nb\n", 3, []string{"a", "b"}},
		{"last", "a\nb\nc\nd\n", 2, []string{"c", "d"}},
		{"no final newline", "a\nb\nc", 2, []string{"b", "c"}},
		{"a cut line is left out", long + "\nend\n", 3, []string{"end"}},
	} {
		p := filepath.Join(dir, tc.name)
		if err := os.WriteFile(p, []byte(tc.text), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := TailLines(p, tc.n)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}
