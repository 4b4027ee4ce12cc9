package router

import (
	"slices"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/internal/bashline"
)

// TestWaitingHeredocs: a here-document keeps a bash line incomplete until
// a line holding only its terminator (issue 16.7), and Waiting says what the
// line waits for (issue 16.8).
func TestWaitingHeredocs(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"cat > f <<'EOF'", "heredoc EOF"},
		{"cat > f <<EOF # comment", "heredoc EOF"},
		{"cat <<A <<B", "heredoc A"},
		{"cat <<", ""}, // bash's syntax error, not ours
		{"cat > f <<'EOF'\n", "heredoc EOF"},
		{"cat > f <<'EOF'\nhello", "heredoc EOF"},
		{"cat > f <<'EOF'\nhello\nEOF", ""},
		{"cat > f <<'EOF'\nhello\nEOF\n", ""},
		{"cat <<EOF\n EOF\nEOF ", "heredoc EOF"},
		{"cat <<\"END\"\n$x\nEND", ""},
		{"cat <<\\END\nEND", ""},
		{"cat <<E\"N\"D\nEND", ""},
		{"cat <<-EOF\n\t\tbody\n\tEOF", ""},
		{"cat <<EOF\n\tEOF", "heredoc EOF"},
		{"cat <<A <<B\na\nA\n", "heredoc B"},
		{"cat <<A <<B\na\nA\nB", ""},
		{"cat<<EOF\nx", "heredoc EOF"},
		{"cat <<EOF; echo 'x\ny'\nbody", "heredoc EOF"},
		{"cat <<EOF # a comment\nbody", "heredoc EOF"},
		{"cat <<EOF \\\n  | tr a b\nbody", "heredoc EOF"},
		{"cat <<< 'here string'\n", ""},
		{"echo $((1<<3))\n", ""},
		{"((x <<= 2))\n", ""},
		{"echo '<<EOF'\n", ""},
		{"echo \"<<EOF\"\n", ""},
		{"echo x # <<EOF\n", ""},
		{"cat <<'EOF\n", "quote"},
		{"echo 'open", "quote"},
		{"echo \"open", "dquote"},
		{"echo a \\", "\\"},
		{"cat <<EOF\n'quote in body\n", "heredoc EOF"},
		{"cat <<EOF\n'quote in body\nEOF", ""},
		{"", ""},
	} {
		if got := Waiting(tc.text); got != tc.want {
			t.Errorf("Waiting(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestHeredocProblem names the here-document left open.
func TestHeredocProblem(t *testing.T) {
	var s bashline.Scanner
	defer s.Close()
	first := 1
	for i, l := range []string{"echo hi", "cat <<'EOF'", "body"} {
		if !s.Incomplete() {
			first = i + 1
		}
		s.Line(l)
	}
	if got, want := s.Status().Problem(first), `the here-document opened on line 2 is never ended by a line "EOF"`; got != want {
		t.Errorf("Problem = %q, want %q", got, want)
	}
}

// TestAgentHelpText: agent mode's /help says plain lines go to Claude and
// bash needs a leading ! (issue 16.18).
func TestAgentHelpText(t *testing.T) {
	h := AgentHelpText()
	if strings.Contains(h, "runs with bash (start with !") || !strings.Contains(h, "a prompt to Claude") || !strings.Contains(h, "!COMMAND") || strings.Contains(h, helpIntro) {
		t.Errorf("agent help:\n%s", h)
	}
}

// TestAgentHelpListsEveryCommand: agent mode's /help has one line for each
// slash command the agent's shell takes, /cost and /compact included.
func TestAgentHelpListsEveryCommand(t *testing.T) {
	var listed []string
	for _, l := range strings.Split(AgentHelpText(), "\n") {
		if f := strings.Fields(l); len(f) > 1 && strings.HasPrefix(l, "  /") {
			listed = append(listed, strings.TrimSuffix(f[0], ","))
		}
	}
	want := []string{"/help", "/cost", "/compact", "/tools", "/trace", "/session", "/offloads", "/open", "/tty", "/clear", "/exit"}
	if strings.Join(listed, " ") != strings.Join(want, " ") {
		t.Fatalf("listed %q, want %q", listed, want)
	}
	for _, b := range AgentBuiltins() {
		if !slices.Contains(listed, b) {
			t.Errorf("%s not in the help", b)
		}
	}
}
