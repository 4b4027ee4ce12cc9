package bash

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/testwait"
)

// TestCommandsHaveNoControllingTerminal: a command leads a session of its
// own, so it has no controlling terminal (tty_nr 0 in /proc/PID/stat) and
// cannot reach the person's terminal through /dev/tty: opening it fails at
// once (ENXIO), where a command of the person's session, in a background
// process group, was stopped (SIGTTIN, SIGTTOU) or wrote to the terminal
// raw. Its shell is still its process group's leader, which interrupts,
// timeouts and the reaper signal.
func TestCommandsHaveNoControllingTerminal(t *testing.T) {
	t.Parallel()
	r := newRunner(t)
	for _, ctx := range []context.Context{context.Background(), WithTerminal(context.Background(), 80)} {
		// Fields 5 to 7 of /proc/PID/stat: process group, session, tty_nr.
		var stat syncBuffer
		if _, err := r.Run(ctx, `read -r _ _ _ _ pg sid tty _ </proc/$$/stat; echo "$$ $pg $sid $tty"`, time.Minute, &stat); err != nil {
			t.Fatal(err)
		}
		out := stat.String()
		var pid, pg, sid, tty int
		if _, err := fmt.Sscan(out, &pid, &pg, &sid, &tty); err != nil {
			t.Fatalf("%q: %v", out, err)
		}
		if pg != pid || sid != pid || tty != 0 {
			t.Errorf("shell %d: group %d, session %d, tty %d; want group and session %d, tty 0", pid, pg, sid, tty, pid)
		}
		var buf syncBuffer
		o, err := r.Run(ctx, `read x </dev/tty; echo "status $?"`, time.Minute, &buf)
		if err != nil {
			t.Fatal(err)
		}
		if got := buf.String(); o.ExitCode != 0 || !strings.Contains(got, "/dev/tty: No such device or address") || !strings.Contains(got, "status 1") {
			t.Errorf("reading /dev/tty: %+v %q", o, got)
		}
	}
}

// TestTerminalSizeReachesTheRunningCommand: a new width set while a
// command runs is its terminal's (stty size) and its processes get
// SIGWINCH, as from a terminal the person resized.
func TestTerminalSizeReachesTheRunningCommand(t *testing.T) {
	t.Parallel()
	r := newRunner(t)
	gate := filepath.Join(t.TempDir(), "gate")
	size := NewTerminalSize(100)
	var out syncBuffer
	done := make(chan error, 1)
	go func() {
		_, err := r.Run(WithTerminalSize(context.Background(), size),
			`trap 'echo "winch $(stty size <&2)"' WINCH; echo "start $(stty size <&2)"; until [ -e `+gate+` ]; do sleep 0.01; done`,
			time.Minute, &out)
		done <- err
	}()
	testwait.For(t, 10*time.Second, "the command to start", func() bool { return strings.Contains(out.String(), "start 24 100") }, func() string { return out.String() })
	size.Set(60)
	testwait.For(t, 10*time.Second, "the command to hear of 60 columns", func() bool { return strings.Contains(out.String(), "winch 24 60") }, func() string { return out.String() })
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	size.Set(70) // no command: only remembered
	if got := size.Cols(); got != 70 {
		t.Errorf("Cols() = %d after Set(70)", got)
	}
}
