package repl

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// BenchmarkTypeLongLine is a 4,500-character line arriving in one read
// without bracketed paste: Bubble Tea v2 delivers one key message per
// character, each through Painted's Update.
func BenchmarkTypeLongLine(b *testing.B) {
	var items []string
	for i := 0; i < 50; i++ {
		items = append(items, fmt.Sprintf(`{"content":"Task %d","activeForm":"Doing task %d","status":"pending"}`, i, i))
	}
	line := `TodoWrite '{"todos":[` + strings.Join(items, ",") + `]}' # the-end`
	for b.Loop() {
		cfg, _ := testConfig(b)
		var s tea.Model = NewPainted(New(cfg))
		s, _ = s.Update(tea.WindowSizeMsg{Width: 100, Height: 24})
		for _, r := range line {
			s, _ = s.Update(textKey(string(r)))
		}
		s, _ = s.Update(redrawMsg{})
		if !strings.HasSuffix(s.(*Painted).Model().text(), "# the-end") {
			b.Fatal(s.(*Painted).Model().text())
		}
	}
}
