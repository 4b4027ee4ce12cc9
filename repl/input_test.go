package repl

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
)

// TestWrappedRowsMatchesTextarea: the input's height is counted with the
// textarea's own word wrap, so its last row (the cursor's) is never cut.
func TestWrappedRowsMatchesTextarea(t *testing.T) {
	var items []string
	for i := 0; i < 50; i++ {
		items = append(items, fmt.Sprintf(`{"content":"Task %d of round 1","activeForm":"Doing task %d","status":"pending"}`, i, i))
	}
	lines := []string{"", "echo hi", strings.Repeat("x", 200), "a " + strings.Repeat("long", 30) + " b",
		`TodoWrite '{"todos":[` + strings.Join(items, ",") + `]}'`, "漢字 " + strings.Repeat("漢", 70), strings.Repeat("word ", 40)}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 300; i++ {
		var b strings.Builder
		for j := rng.Intn(300); j > 0; j-- {
			b.WriteByte(" ab"[rng.Intn(3)])
		}
		lines = append(lines, b.String())
	}
	for _, width := range []int{20, 57, 99} {
		in := newInput(lipgloss.NewStyle())
		in.SetWidth(width)
		for _, l := range lines {
			in.SetValue(l)
			if got, want := wrappedRows(l, in.Width()), in.LineInfo().Height; got != want {
				t.Fatalf("width %d: %d rows counted, textarea wraps %q into %d", in.Width(), got, l, want)
			}
		}
	}
}
