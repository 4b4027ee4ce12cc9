package e2e

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// paneDead reports whether the shell in the window has ended.
func (tt *tmuxTerm) paneDead() bool {
	return strings.TrimSpace(tt.run("display-message", "-p", "-t", "t", "#{pane_dead}")) == "1"
}

// TestTmuxCtrlDWhileACommandRuns: Ctrl+D while a command runs (issue 29,
// item 1) neither ends the command nor the shell, as in bash: the loop goes
// on to its end, every line it printed is in the scrollback, the file it
// makes last is made, a hint says that the command reads no input and how
// to stop it, and the shell takes the next line. Ctrl+D at the empty
// prompt then leaves. Before, Ctrl+D killed the loop, its lines vanished,
// SENTINEL was never made and the shell was gone.
func TestTmuxCtrlDWhileACommandRuns(t *testing.T) {
	t.Parallel()
	for _, sz := range sizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			tt := startTmuxIn(t, sz[0], sz[1], dir)
			tt.enter("for i in 1 2 3 4 5 6; do echo step $i; sleep 1; done; touch SENTINEL")
			tt.waitUntil("the loop's third line, live", func() bool { return strings.Contains(tt.screen(), "  step 3") })
			tt.run("send-keys", "-t", "t", "C-d")
			tt.waitUntil("the hint", func() bool {
				if tt.paneDead() {
					t.Fatalf("the shell left on Ctrl+D while a command ran:\n%s", tt.all())
				}
				return strings.Contains(tt.screen(), "Ctrl+D: the command reads no input · Ctrl+C stops it")
			})
			s := tt.waitScreen("the loop's end", func(s string) bool { return hasLine(s, "step 6") && idle(s) })
			for i := 1; i <= 6; i++ {
				if !hasLine(s, fmt.Sprintf("step %d", i)) {
					t.Errorf("no line 'step %d' in the scrollback:\n%s", i, s)
				}
			}
			if strings.Contains(s, "interrupted") || strings.Contains(s, "Ctrl+D: the command") {
				t.Errorf("interrupted, or the hint left behind:\n%s", s)
			}
			if _, err := os.Stat(filepath.Join(dir, "SENTINEL")); err != nil {
				t.Fatalf("the loop did not run to its end: %v", err)
			}
			tt.command("echo still here", "still here")
			tt.run("send-keys", "-t", "t", "C-d")
			tt.waitUntil("the shell to leave on Ctrl+D at the empty prompt", func() bool { return tt.paneDead() })
		})
	}
}

// heldAPI is a fake Messages API on loopback whose answer streams its
// first words, then waits for release (and ends) or for the request to be
// given up.
type heldAPI struct{ release chan struct{} }

func (f *heldAPI) serve(w http.ResponseWriter, r *http.Request) {
	_, _ = io.ReadAll(r.Body)
	w.Header().Set("Content-Type", "text/event-stream")
	send := func(ev, data string) {
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev, data)
		w.(http.Flusher).Flush()
	}
	delta := func(text string) {
		send("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"`+text+`"}}`)
	}
	send("message_start", `{"type":"message_start","message":{"id":"msg_h","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":7,"output_tokens":1}}}`)
	send("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
	delta("Working on it")
	select {
	case <-f.release:
	case <-r.Context().Done():
		return
	}
	delta(", all done")
	send("content_block_stop", `{"type":"content_block_stop","index":0}`)
	send("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":5}}`)
	send("message_stop", `{"type":"message_stop"}`)
}

// TestTmuxCtrlDWhileTheAgentWorks: in agent mode, Ctrl+D while the agent
// works asks for a second press, as Claude Code does, and the turn goes
// on to its answer; twice, the turn stops, what it had said and the
// interruption stay in the scrollback, and the shell leaves. Before, one
// Ctrl+D left at once, the answer's text gone.
func TestTmuxCtrlDWhileTheAgentWorks(t *testing.T) {
	t.Parallel()
	start := func(t *testing.T, sz [2]int) (*tmuxTerm, *heldAPI) {
		api := &heldAPI{release: make(chan struct{})}
		srv := httptest.NewServer(http.HandlerFunc(api.serve))
		t.Cleanup(srv.Close)
		home := t.TempDir()
		env := []string{"ANTHROPIC_API_KEY=k", "ANTHROPIC_BASE_URL=" + srv.URL, "HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config")}
		tt := startTmuxWith(t, sz[0], sz[1], "", "✦", env, "agent", "--offload-dir", filepath.Join(t.TempDir(), "off"))
		tt.enter("do the work")
		tt.waitUntil("the answer's first words, live", func() bool { return strings.Contains(tt.screen(), "Working on it") })
		return tt, api
	}
	question := func(t *testing.T, tt *tmuxTerm) {
		t.Helper()
		tt.waitUntil("the question", func() bool {
			if tt.paneDead() {
				t.Fatalf("the shell left on one Ctrl+D while the agent worked:\n%s", tt.all())
			}
			return strings.Contains(tt.screen(), "Press Ctrl+D again to stop the agent and exit")
		})
	}
	for _, sz := range sizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Run("once", func(t *testing.T) {
				tt, api := start(t, sz)
				tt.run("send-keys", "-t", "t", "C-d")
				question(t, tt)
				close(api.release)
				tt.waitScreen("the whole answer, the turn ended", func(s string) bool {
					return strings.Contains(s, "Working on it, all done") && !strings.Contains(tt.screen(), "Ctrl+C to interrupt")
				})
				if tt.paneDead() || strings.Contains(tt.screen(), "Press Ctrl+D again") {
					t.Fatalf("the shell left, or the question stayed:\n%s", tt.all())
				}
				tt.run("send-keys", "-t", "t", "C-d")
				tt.waitUntil("the shell to leave on Ctrl+D at the empty prompt", func() bool { return tt.paneDead() })
			})
			t.Run("twice", func(t *testing.T) {
				tt, _ := start(t, sz)
				tt.run("send-keys", "-t", "t", "C-d")
				question(t, tt)
				tt.run("send-keys", "-t", "t", "C-d")
				tt.waitUntil("the shell to leave", func() bool { return tt.paneDead() })
				s := tt.all()
				if !hasLine(s, "Working on it") || !hasLine(s, "Interrupted by Ctrl+D: the shell leaves") || strings.Contains(s, "the next prompt") {
					t.Fatalf("the answer's text or the interruption is not in the scrollback (or it promises a next prompt):\n%s", s)
				}
			})
		})
	}
}
