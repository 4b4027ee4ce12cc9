package bash

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/testwait"
)

// TestTerminalFirstLineArrivesAtOnce: on a terminal of its own a command's
// first line reaches the live view while the command still runs, not when
// more output comes (the coalescing read must time out: a trial saw
// "Deploying…" appear only at the end of a six-second command).
func TestTerminalFirstLineArrivesAtOnce(t *testing.T) {
	t.Parallel()
	r := newRunner(t)
	gate := filepath.Join(t.TempDir(), "go-on")
	var out syncBuffer
	done := make(chan error, 1)
	go func() {
		_, err := r.Run(WithTerminal(context.Background(), 80),
			"echo first; while [ ! -e "+gate+" ]; do sleep 0.01; done; echo second", time.Minute, &out)
		done <- err
	}()
	// The command waits for the gate, which opens only once "first" is seen.
	testwait.For(t, 10*time.Second, "the first line while the command runs",
		func() bool { return strings.Contains(out.String(), "first") }, out.String)
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "first\nsecond\n" {
		t.Fatalf("output %q", got)
	}
}
