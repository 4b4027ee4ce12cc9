package repl

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"

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
