package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/todo-shell/todo-shell/render"
)

// maxHelpWidth is the most columns a line of --help takes; minHelpWidth
// the fewest it is wrapped to, however narrow the terminal.
const (
	maxHelpWidth = 80
	minHelpWidth = 30
)

// helpWidth is the columns help written to out wraps at: the terminal's
// width when out is a terminal, at most maxHelpWidth; maxHelpWidth for a
// pipe or a file.
func helpWidth(out io.Writer) int {
	return max(min(tableWidth(out), maxHelpWidth), minHelpWidth)
}

// sharedFlagsKey is the annotation naming the shared (root) flags a
// subcommand uses: its help lists those only.
const sharedFlagsKey = "todo-shell/shared-flags"

// Which shared flags a subcommand uses. (The root uses them all; every
// command still accepts them, wherever they are given, as before.)

// limitFlags are the todo limits.
func limitFlags() []string { return []string{"max-items", "max-content-length", "max-in-progress"} }

// engineFlags are what the engine is wired with.
func engineFlags() []string {
	return append([]string{"session", "offload-dir", "offload-threshold", "offload-max-mib", "bash-timeout"}, limitFlags()...)
}

// sessionFlags are the engine's and picking a session up again.
func sessionFlags() []string { return append([]string{"resume", "continue"}, engineFlags()...) }

// usesFlags records the shared flags c uses, for its help.
func usesFlags(c *cobra.Command, names ...string) {
	if c.Annotations == nil {
		c.Annotations = map[string]string{}
	}
	c.Annotations[sharedFlagsKey] = strings.Join(names, " ")
}

// setHelp makes every command's help fit the terminal (helpWidth) and list only
// the flags the command uses.
func setHelp(root *cobra.Command) {
	root.SetUsageFunc(func(c *cobra.Command) error {
		fillHelp(c.Root())
		out := c.OutOrStderr()
		fmt.Fprint(out, usage(c, helpWidth(out)))
		return nil
	})
	root.SetHelpFunc(func(c *cobra.Command, _ []string) {
		fillHelp(c.Root())
		text := strings.TrimRight(c.Long, " \n")
		if text == "" {
			text = c.Short
		}
		out := c.OutOrStdout()
		width := helpWidth(out)
		if text != "" {
			fmt.Fprintln(out, reflow(text, width))
			fmt.Fprintln(out)
		}
		if c.Runnable() || c.HasSubCommands() {
			fmt.Fprint(out, usage(c, width))
		}
	})
}

// fillHelp fills in the help that is made from what runs, only when help
// is shown: agent's tools (describeAgent).
func fillHelp(root *cobra.Command) {
	for _, c := range root.Commands() {
		if c.Name() == "agent" {
			describeAgent(c)
		}
	}
}

// usage is cobra's usage text, with the flags wrapped to width and a
// subcommand's shared flags cut to those it uses.
func usage(c *cobra.Command, width int) string {
	var b strings.Builder
	b.WriteString("Usage:\n")
	if c.Runnable() {
		b.WriteString("  " + c.UseLine() + "\n")
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("  " + c.CommandPath() + " [command]\n")
	}
	if c.Example != "" {
		b.WriteString("\nExamples:\n" + reflow(c.Example, width) + "\n")
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\nAvailable Commands:\n")
		for _, s := range c.Commands() {
			if s.IsAvailableCommand() || s.Name() == "help" {
				b.WriteString(render.WrapHelp(fmt.Sprintf("  %-*s %s", c.NamePadding(), s.Name(), s.Short), width) + "\n")
			}
		}
	}
	if fs := c.LocalFlags(); fs.HasAvailableFlags() {
		b.WriteString("\nFlags:\n" + flagUsages(fs, width) + "\n")
	}
	if fs := sharedUsed(c); fs.HasAvailableFlags() {
		b.WriteString("\nShared flags:\n" + flagUsages(fs, width) + "\n")
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\n" + render.WrapHelp("Use \""+c.CommandPath()+" [command] --help\" for more information about a command.", width) + "\n")
	}
	return b.String()
}

// flagDescIndent is where a flag's description starts when it goes under
// the flag (see flagUsages).
const flagDescIndent = 10

// flagUsages lists fs's flags in width columns: pflag's two columns, the
// description wrapped under its own column; when that column starts past
// the middle (a long flag in a narrow terminal), each description goes on
// the rows under its flag instead, indented flagDescIndent.
func flagUsages(fs *pflag.FlagSet, width int) string {
	lines := strings.Split(strings.TrimRight(fs.FlagUsagesWrapped(0), " \n"), "\n")
	col := 0
	for _, l := range lines {
		if i := descColumn(l); i > 0 {
			col = i
			break
		}
	}
	if col == 0 || (col <= width/2 && longestWord(lines, col) <= width-col) {
		return render.WrapHelp(strings.Join(lines, "\n"), width)
	}
	var out []string
	pad := strings.Repeat(" ", flagDescIndent)
	for _, l := range lines {
		name, desc := strings.TrimRight(l[:min(col, len(l))], " "), ""
		if len(l) > col {
			desc = strings.TrimSpace(l[col:])
		}
		if strings.TrimSpace(name) != "" {
			out = append(out, name)
		}
		if desc != "" {
			out = append(out, render.WrapHelp(pad+desc, width))
		}
	}
	return strings.Join(out, "\n")
}

// longestWord is the widest word of the descriptions of lines (from column
// col on): one wider than the description's column would be cut inside
// ($XDG_STATE_HOME/todo-shell/plans/NAME at 60 columns).
func longestWord(lines []string, col int) int {
	n := 0
	for _, l := range lines {
		if len(l) <= col {
			continue
		}
		for _, w := range strings.Fields(l[col:]) {
			n = max(n, ansi.StringWidth(w))
		}
	}
	return n
}

// descColumn is where the description of a pflag usage line starts: after
// the first run of two or more spaces following the flag; 0 for none.
func descColumn(line string) int {
	lead := len(line) - len(strings.TrimLeft(line, " "))
	i := strings.Index(line[lead:], "  ")
	if i < 0 {
		return 0
	}
	j := lead + i
	for j < len(line) && line[j] == ' ' {
		j++
	}
	if j == len(line) {
		return 0
	}
	return j
}

// sharedUsed is the inherited flags c uses (see usesFlags).
func sharedUsed(c *cobra.Command) *pflag.FlagSet {
	used := map[string]bool{}
	for _, n := range strings.Fields(c.Annotations[sharedFlagsKey]) {
		used[n] = true
	}
	fs := pflag.NewFlagSet(c.Name(), pflag.ContinueOnError)
	c.InheritedFlags().VisitAll(func(f *pflag.Flag) {
		if used[f.Name] {
			fs.AddFlag(f)
		}
	})
	return fs
}

// reflow fits help text to width: a paragraph of unindented lines with a
// line too long is joined and wrapped again at spaces; an indented line
// (a list entry, an example) is wrapped on its own (render.WrapHelp, which
// never breaks a JSON string).
func reflow(text string, width int) string {
	lines := strings.Split(text, "\n")
	var out, para []string
	long := false
	flush := func() {
		if long {
			out = append(out, render.WrapHelp(strings.Join(para, " "), width))
		} else {
			out = append(out, para...)
		}
		para, long = nil, false
	}
	for _, l := range lines {
		if l == "" || strings.HasPrefix(l, " ") {
			flush()
			out = append(out, render.WrapHelp(l, width))
			continue
		}
		para = append(para, l)
		long = long || len([]rune(l)) > width
	}
	flush()
	return strings.Join(out, "\n")
}
