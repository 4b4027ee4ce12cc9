package repl

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	histfile "github.com/todo-shell/todo-shell/repl/history"
)

// TestCtrlREveryKeySequence presses Ctrl+R and then every sequence of three
// keys of a small alphabet (a letter, two letters in one read, a
// letter with no match, Backspace, Ctrl+R, Enter, Esc), in shell and agent
// mode, with an empty and a filled history: no key panics. Trial findings:
// Ctrl+R, "ls", Backspace, Backspace indexed out of range; Ctrl+R, "zzq",
// Enter (no match) dereferenced the ended search.
func TestCtrlREveryKeySequence(t *testing.T) {
	keys := []struct {
		name string
		msg  tea.KeyPressMsg
	}{
		{"l", textKey("l")},
		{"ls", textKey("ls")},
		{"zzq", textKey("zzq")},
		{"BS", tea.KeyPressMsg{Code: tea.KeyBackspace}},
		{"^R", tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl}},
		{"Enter", tea.KeyPressMsg{Code: tea.KeyEnter}},
		{"Esc", tea.KeyPressMsg{Code: tea.KeyEscape}},
	}
	for _, mode := range []string{"shell", "agent"} {
		for _, entries := range [][]string{nil, {"ls -l", "echo ls", "true"}} {
			t.Run(fmt.Sprintf("%s/%d entries", mode, len(entries)), func(t *testing.T) {
				cfg, _ := testConfig(t)
				if mode == "agent" {
					cfg.Agent = &scriptedAgent{}
				}
				var walk func(seq []int)
				walk = func(seq []int) {
					if len(seq) < 3 { // a panic in a prefix shows in its longer sequences
						for i := range keys {
							walk(append(seq, i))
						}
						return
					}
					{
						h, _ := histfile.Open("")
						for _, e := range entries {
							h.Add(e)
						}
						cfg.History = h
						var m tea.Model = New(cfg)
						m, _ = m.Update(tea.WindowSizeMsg{Width: 60, Height: 20})
						m, _ = m.Update(tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl})
						names := []string{"^R"}
						for _, k := range seq {
							names = append(names, keys[k].name)
							func() {
								defer func() {
									if r := recover(); r != nil {
										t.Fatalf("keys %v: panic %v", names, r)
									}
								}()
								m, _ = m.Update(keys[k].msg)
								_ = m.View().Content
							}()
						}
					}
				}
				walk(nil)
			})
		}
	}
}

// TestCtrlRShowsTheMatchPastTheWidth: a match that lies past the window's
// width shows, with the text around it, the cut sides marked (issue 29,
// item 11: the line was cut at the width, the match with it); a match
// within the width shows the line from its start, as before.
func TestCtrlRShowsTheMatchPastTheWidth(t *testing.T) {
	long := "echo " + strings.Repeat("x", 70) + " NEEDLE and the rest of the line, " + strings.Repeat("y", 40)
	for _, tc := range []struct {
		name, query, want string
		width             int
	}{
		{"past the width", "NEEDLE", "(reverse-i-search)'NEEDLE': …xxxxxxxxxx NEEDLE and the res…", 60},
		{"past the width, narrow", "NEEDLE", "(reverse-i-search)'NEEDLE': …x NEEDLE an…", 42},
		{"within the width", "echo", "(reverse-i-search)'echo': echo xxxxxxxxxxxxxxxxxxxxxxxxxxx…", 60},
		{"at the end", "yyy", "(reverse-i-search)'yyy': … of the line, yyyyyyyyyyyyyyyyyy…", 60},
		{"failed, past the width", "NEEDLEzz", "(failed reverse-i-search)'NEEDLEzz': …xxxxxxxxx NEEDLE and…", 60},
		{"no query", "", "(reverse-i-search)'': echo xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…", 60},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, _ := testConfig(t)
			h, _ := histfile.Open("")
			h.Add(long)
			cfg.History = h
			var m tea.Model = New(cfg)
			m, _ = m.Update(tea.WindowSizeMsg{Width: tc.width, Height: 20})
			m, _ = m.Update(tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl})
			if tc.query != "" {
				m, _ = m.Update(textKey(tc.query))
			}
			view := m.View().Content
			rows := strings.Split(view, "\n")
			last := rows[len(rows)-1]
			if last != tc.want {
				t.Errorf("search row\n got %q\nwant %q", last, tc.want)
			}
			if w := ansi.StringWidth(last); w > tc.width-1 {
				t.Errorf("search row %d cells wide in %d columns", w, tc.width)
			}
		})
	}
}
