package repl

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/router"
)

// View draws the live area: the task panel, the running command with its
// last output lines, a hint, and the prompt.
func (m Model) View() string {
	if m.cfg.Screen != nil {
		return m.frame // drawn once, in Update, for the Screen
	}
	return m.draw()
}

// draw assembles the live area.
func (m Model) draw() string {
	if m.quitting {
		return ""
	}
	var b strings.Builder
	if m.panel != "" {
		b.WriteString(m.panel)
		b.WriteByte('\n')
	}
	if r := m.running; r != nil {
		label := fmt.Sprintf("%s Running %s (%s)", m.spin.View(), oneLine(r.line), formatElapsed(r.elapsed))
		if r.events != nil {
			label = fmt.Sprintf("%s %s (%s · Ctrl+C to interrupt)", m.spin.View(), m.agentLabel(), formatElapsed(r.elapsed))
		}
		b.WriteString(m.fit(label))
		b.WriteByte('\n')
		for _, l := range r.lines {
			b.WriteString(m.styles.Dim.Render(m.fit("  " + render.SanitizeOutput(l))))
			b.WriteByte('\n')
		}
	}
	for _, q := range m.queue { // typed ahead, waiting for the running command
		b.WriteString(m.styles.Dim.Render(m.fit(m.linePrompt(0) + render.Sanitize(oneLine(q)))))
		b.WriteByte('\n')
	}
	if m.hint != "" {
		b.WriteString(m.styles.Dim.Render(m.fit(m.hint)))
		b.WriteByte('\n')
	}
	if m.search != nil {
		b.WriteString(m.searchView(m.search.s))
	} else {
		b.WriteString(m.input.View())
	}
	if list := m.tabList(); list != "" {
		b.WriteByte('\n')
		b.WriteString(list)
	}
	return b.String()
}

// fit cuts a line to the terminal's width.
func (m Model) fit(s string) string {
	if m.width > 0 && ansi.StringWidth(s) > m.width {
		return ansi.Truncate(s, m.width, "…")
	}
	return s
}

func formatElapsed(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// formatText styles finished stdout and stderr text for the scrollback.
func (m Model) formatText(stdout, stderr string) string {
	var parts []string
	if stdout != "" {
		parts = append(parts, cleanOutput(stdout))
	}
	if stderr != "" {
		parts = append(parts, m.styles.Error.Render(cleanOutput(stderr)))
	}
	return strings.Join(parts, "\n")
}

// formatOutput styles a finished line's output for the scrollback.
func (m Model) formatOutput(out router.Output) string {
	var parts []string
	if m.trace {
		for _, t := range router.TraceLines(out) {
			parts = append(parts, m.styles.Dim.Render(render.Sanitize(t)))
		}
	}
	if o := out.Offloaded; o != nil {
		parts = append(parts, m.styles.Accent.Render(render.Sanitize(out.Stdout)))
		lines, more := previewLines(out)
		for _, l := range lines {
			parts = append(parts, m.styles.Dim.Render(m.fit("  "+render.SanitizeOutput(l))))
		}
		if more > 0 {
			parts = append(parts, m.styles.Dim.Render(fmt.Sprintf("  … %d more lines", more)))
		}
	} else if out.Stdout != "" {
		parts = append(parts, cleanOutput(out.Stdout))
	}
	if out.Warning != "" {
		parts = append(parts, m.styles.Warning.Render(render.Sanitize(out.Warning)))
	}
	if out.Stderr != "" {
		parts = append(parts, m.styles.Error.Render(cleanOutput(out.Stderr)))
	}
	return strings.Join(parts, "\n")
}
