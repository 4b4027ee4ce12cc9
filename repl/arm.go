package repl

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// armTimeout is how long a first Ctrl+C on an empty line (or a first
// Ctrl+D while the agent works) waits for the second: after it the hint
// goes and the next press is a first one again. Claude Code's wait is
// about a second or two; three seconds leaves room for a slow second
// press on a loaded machine or over ssh.
const armTimeout = 3 * time.Second

// armExpiredMsg says that the arming numbered arm has run out.
type armExpiredMsg struct{ arm int }

// armed notes a first press (Ctrl+C or Ctrl+D) and returns the tick that
// ends it after armTimeout: a later arming has its own number, so an
// earlier tick leaves it be.
func (m *Model) arm() tea.Cmd {
	m.arms++
	n := m.arms
	return tea.Tick(armTimeout, func(time.Time) tea.Msg { return armExpiredMsg{n} })
}

// armExpired forgets a first press whose time ran out, and its hint.
func (m *Model) armExpired(msg armExpiredMsg) {
	if msg.arm != m.arms {
		return // pressed again since: that arming has a tick of its own
	}
	m.disarm()
	m.eofArmed = false
	if m.hint == doubleCtrlDMsg {
		m.hint = ""
	}
}
