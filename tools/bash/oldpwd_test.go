package bash

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCdDashIsThisShells: `cd -` goes back to where this runner's last cd
// came from, never to an OLDPWD inherited from the terminal (issue 16.9).
func TestCdDashIsThisShells(t *testing.T) {
	t.Setenv("OLDPWD", "/")
	r := newRunner(t)
	base := r.Dir()
	for _, d := range []string{"d1", "d2"} {
		if err := os.Mkdir(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ cmd, want string }{
		{`cd - 2>/dev/null; echo "$? $PWD"`, "1 " + base},
		{`cd d1`, ""},
		{`cd ../d2`, ""},
		{`cd - >/dev/null; echo "$? $PWD"`, "0 " + filepath.Join(base, "d1")},
		{`cd - >/dev/null; echo "$? $PWD"`, "0 " + filepath.Join(base, "d2")},
		{`echo "$OLDPWD"`, filepath.Join(base, "d1")},
	} {
		var out syncBuffer
		if _, err := r.Run(context.Background(), tc.cmd, 0, &out); err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(out.String()); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.cmd, got, tc.want)
		}
	}
}
