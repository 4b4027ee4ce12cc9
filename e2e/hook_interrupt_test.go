package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealClaudeCodeInterruptIsNotHeld: the real Claude Code, interactive
// in tmux. The model writes a plan of two and, while its next turn is on
// the way, the person presses Esc; then asks for something else ("never
// mind"). The model answers and ends its turn with the plan unfinished:
// the stop goes through (the person is told why), no request carries a
// held stop's reason, and the turn the script keeps for a held stop is
// never asked for.
func TestRealClaudeCodeInterruptIsNotHeld(t *testing.T) {
	t.Parallel()
	c := startClaudeInTmux(t, 100, 30, []turn{
		{call("TodoWrite", todos("Write the lexer=i", "Add tests=p"))},
		text("Hello."),
		// Asked for only if the stop after "Hello." were held.
		{call("TodoWrite", todos("Write the lexer=c", "Add tests=c"))},
	})
	c.prompt("Write a lexer")
	c.step(0)
	c.wait("turn 1 asked for", func() bool {
		_, err := os.Stat(filepath.Join(c.s.run.HoldDir, "held-1"))
		return err == nil
	})
	c.tmux("send-keys", "-t", "t", "Escape")
	c.wait("the interrupt shown", func() bool { return strings.Contains(c.screen(), "Interrupted") })
	c.prompt("Never mind, just say hello")
	c.step(1)
	c.wait("the note that the stop went through", func() bool {
		return strings.Contains(strings.Join(strings.Fields(c.screen()), " "), "but you interrupted: the stop goes through")
	})
	if _, err := os.Stat(filepath.Join(c.s.run.HoldDir, "held-2")); err == nil {
		t.Errorf("the turn after a held stop was asked for:\n%s", dump(c.s.requests()))
	}
	if reqs := c.s.requests(); len(held(reqs)) != 0 {
		t.Errorf("held at %v:\n%s", held(reqs), dump(reqs))
	}
}
