package e2e

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/todo-shell/todo-shell/internal/testwait"
)

// xterm is the built binary in a pseudo-terminal drawn by xterm.js (the
// emulator inside VS Code's terminal): @xterm/headless, pinned in
// e2e/xterm/package.json and installed by `npm ci` there (.ci/run does it),
// run by a small node harness (e2e/xterm/harness.mjs). The harness answers
// the terminal's queries as xterm.js does, and reflows its buffer on a
// resize as VS Code's terminal does.
type xterm struct {
	t    *testing.T
	cmd  *exec.Cmd
	tty  *os.File
	node *exec.Cmd
	in   io.WriteCloser // to the harness

	mu      sync.Mutex
	waiting map[int]chan xtermReply
	next    int
	exited  chan struct{}
}

// xtermReply is the harness's answer to a resize or a snapshot.
type xtermReply struct {
	ID      int      `json:"id"`
	Op      string   `json:"op"`
	Data    string   `json:"data"`
	Lines   []string `json:"lines"`     // the scrollback and the screen, top first
	Last    []int    `json:"lastCells"` // per line: the column of its last non-blank cell
	BaseY   int      `json:"baseY"`     // the index of the screen's first row in Lines
	CursorX int      `json:"cursorX"`
	CursorY int      `json:"cursorY"`
	Cols    int      `json:"cols"`
	Rows    int      `json:"rows"`
}

// screen is the rows on the screen.
func (r xtermReply) screen() []string { return r.Lines[r.BaseY:] }

// startXterm starts the binary with args in a cols×rows xterm.js terminal,
// in a fresh directory.
func startXterm(t *testing.T, cols, rows uint16, args ...string) *xterm {
	t.Helper()
	dir, err := filepath.Abs("xterm")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@xterm", "headless")); err != nil {
		t.Fatalf("@xterm/headless is not installed: run `npm ci` in e2e/xterm (.ci/run does): %v", err)
	}
	x := &xterm{t: t, waiting: map[int]chan xtermReply{}, exited: make(chan struct{})}
	x.node = exec.Command("node", filepath.Join(dir, "harness.mjs"), fmt.Sprint(cols), fmt.Sprint(rows))
	x.node.Dir = dir
	x.node.Stderr = os.Stderr
	if x.in, err = x.node.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := x.node.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := x.node.Start(); err != nil {
		t.Fatalf("node: %v", err)
	}
	t.Cleanup(func() { _ = x.node.Process.Kill() }) // should the harness not answer; once it ends, a no-op
	go x.readHarness(out)
	// The terminal is there before the program, as a window is: node and
	// xterm.js loaded (seconds on a busy machine, which the waits for the
	// program's output below must not pay for).
	x.askWithin(map[string]any{"op": "snapshot"}, 60*time.Second)
	x.cmd = exec.Command(binary, append([]string{"--offload-dir", t.TempDir()}, args...)...)
	x.cmd.Dir = t.TempDir()
	x.cmd.Env = append(os.Environ(), "TERM=xterm-256color", "COLORTERM=truecolor", "XDG_STATE_HOME="+t.TempDir())
	x.tty, err = pty.StartWithSize(x.cmd, &pty.Winsize{Rows: rows, Cols: cols})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = x.cmd.Process.Kill()
		<-x.exited
		x.tty.Close()
		x.in.Close()
		_ = x.node.Wait()
	})
	go x.pump()
	return x
}

// pump copies what the program writes to the harness, until the program's
// end.
func (x *xterm) pump() {
	defer close(x.exited)
	buf := make([]byte, 32<<10)
	for {
		n, err := x.tty.Read(buf)
		if n > 0 {
			x.send(map[string]any{"op": "write", "data": base64.StdEncoding.EncodeToString(buf[:n])})
		}
		if err != nil {
			return
		}
	}
}

func (x *xterm) send(msg map[string]any) {
	b, _ := json.Marshal(msg)
	x.mu.Lock()
	defer x.mu.Unlock()
	_, _ = x.in.Write(append(b, '\n')) // a harness gone: the wait for its answer fails
}

// readHarness hands the terminal's answers to the program and the
// harness's replies to whoever waits for them.
func (x *xterm) readHarness(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var rep xtermReply
		if err := json.Unmarshal(sc.Bytes(), &rep); err != nil {
			continue
		}
		if rep.Op == "data" {
			b, _ := base64.StdEncoding.DecodeString(rep.Data)
			_, _ = x.tty.Write(b)
			continue
		}
		x.mu.Lock()
		ch := x.waiting[rep.ID]
		delete(x.waiting, rep.ID)
		x.mu.Unlock()
		if ch != nil {
			ch <- rep
		}
	}
}

// ask sends msg with a new id and waits for the harness's reply.
func (x *xterm) ask(msg map[string]any) xtermReply {
	x.t.Helper()
	return x.askWithin(msg, 10*time.Second)
}

// askWithin is ask waiting at most d.
func (x *xterm) askWithin(msg map[string]any, d time.Duration) xtermReply {
	x.t.Helper()
	ch := make(chan xtermReply, 1)
	x.mu.Lock()
	x.next++
	id := x.next
	x.waiting[id] = ch
	x.mu.Unlock()
	msg["id"] = id
	x.send(msg)
	select {
	case rep := <-ch:
		return rep
	case <-time.After(d):
		x.t.Fatalf("the xterm.js harness did not answer %v within %v", msg, d)
		return xtermReply{}
	}
}

// snapshot is the terminal once everything the program wrote so far is
// drawn.
func (x *xterm) snapshot() xtermReply {
	return x.ask(map[string]any{"op": "snapshot"})
}

// resize makes the terminal cols×rows as a terminal window does: the
// emulator first (reflowing what it shows), then the pty's size, which
// signals the program.
func (x *xterm) resize(cols, rows uint16) {
	x.t.Helper()
	x.ask(map[string]any{"op": "resize", "cols": cols, "rows": rows})
	if err := pty.Setsize(x.tty, &pty.Winsize{Rows: rows, Cols: cols}); err != nil {
		x.t.Fatal(err)
	}
}

// typeText writes keys to the program.
func (x *xterm) typeText(s string) {
	x.t.Helper()
	if _, err := x.tty.Write([]byte(s)); err != nil {
		x.t.Fatal(err)
	}
}

// waitScreen waits until ok holds for a snapshot.
func (x *xterm) waitScreen(what string, ok func(xtermReply) bool) xtermReply {
	x.t.Helper()
	var last xtermReply
	testwait.For(x.t, 10*time.Second, what, func() bool {
		last = x.snapshot()
		return ok(last)
	}, func() string { return "terminal:\n" + strings.Join(last.Lines, "\n") })
	return last
}

// waitExit waits for the program to end.
func (x *xterm) waitExit() {
	x.t.Helper()
	select {
	case <-x.exited:
	case <-time.After(10 * time.Second):
		x.t.Fatal("the shell did not end")
	}
	_ = x.cmd.Wait()
}

// countLines is how many of lines contain s.
func countLines(lines []string, s string) int {
	n := 0
	for _, l := range lines {
		if strings.Contains(l, s) {
			n++
		}
	}
	return n
}
