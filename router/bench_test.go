package router

import (
	"fmt"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/internal/bashline"
)

// splitArgs splits an agent command's arguments as the router does.
func splitArgs(s string) ([]string, error) { return bashline.Words(s) }

// paste300 is a paste of 300 lines: bash lines, a TodoWrite whose JSON
// spans lines in quotes, a here-document, TodoRead.
func paste300() string {
	var b strings.Builder
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&b, "echo step %d && ls -la | grep -c x\n", i)
		b.WriteString("TodoWrite '{\"todos\":[\n")
		for j := 0; j < 8; j++ {
			fmt.Fprintf(&b, "  {\"content\":\"Task %d\",\"activeForm\":\"Doing task %d\",\"status\":\"pending\"},\n", j, j)
		}
		b.WriteString("  {\"content\":\"Last\",\"activeForm\":\"Finishing\",\"status\":\"pending\"}\n]}'\n")
		b.WriteString("cat > notes.txt <<'EOF'\nsome notes\nEOF\nTodoRead\n")
	}
	return b.String()
}

// todoWrite50 is the arguments of a TodoWrite of 50 items (5 KB).
func todoWrite50() string {
	var items []string
	for i := 0; i < 50; i++ {
		items = append(items, fmt.Sprintf(`{"content":"Task %d of the plan","activeForm":"Doing task %d","status":"pending"}`, i, i))
	}
	return `'{"todos":[` + strings.Join(items, ",") + `]}'`
}

// BenchmarkCommandsPaste300: a 300-line paste split into the commands bash
// would read from it.
func BenchmarkCommandsPaste300(b *testing.B) {
	text := paste300()
	tools := names{"TodoRead": true, "TodoWrite": true}
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if len(Commands(text, tools)) != 80 {
			b.Fatal(len(Commands(text, tools)))
		}
	}
}

// BenchmarkWaitingTodoWrite: Enter on a TodoWrite typed over 11 lines,
// its quote still open: what the input waits for.
func BenchmarkWaitingTodoWrite(b *testing.B) {
	text := strings.SplitN(paste300(), "]}'", 2)[0]
	for b.Loop() {
		if Waiting(text) != "quote" {
			b.Fatal(Waiting(text))
		}
	}
}

// BenchmarkAgentArgs50: the words of a TodoWrite of 50 items.
func BenchmarkAgentArgs50(b *testing.B) {
	args := todoWrite50()
	b.SetBytes(int64(len(args)))
	for b.Loop() {
		if w, err := splitArgs(args); err != nil || len(w) != 1 {
			b.Fatal(w, err)
		}
	}
}
