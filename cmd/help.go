package cmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/todo-shell/todo-shell/render"
)

// helpWidth is the most columns a line of --help takes.
const helpWidth = 80

// sharedFlagsKey is the annotation naming the shared (root) flags a
// subcommand uses: its help lists those only.
const sharedFlagsKey = "todo-shell/shared-flags"

// Which shared flags a subcommand uses. (The root uses them all; every
// command still accepts them, wherever they are given, as before.)

// limitFlags are the todo limits.
func limitFlags() []string { return []string{"max-items", "max-content-length", "max-in-progress"} }

// engineFlags are what the engine is wired with.
func engineFlags() []string {
	return append([]string{"session", "offload-dir", "offload-threshold", "bash-timeout"}, limitFlags()...)
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

// setHelp makes every command's help fit helpWidth columns and list only
// the flags the command uses.
func setHelp(root *cobra.Command) {
	root.SetUsageFunc(func(c *cobra.Command) error {
		fmt.Fprint(c.OutOrStderr(), usage(c))
		return nil
	})
	root.SetHelpFunc(func(c *cobra.Command, _ []string) {
		text := strings.TrimRight(c.Long, " \n")
		if text == "" {
			text = c.Short
		}
		out := c.OutOrStdout()
		if text != "" {
			fmt.Fprintln(out, reflow(text, helpWidth))
			fmt.Fprintln(out)
		}
		if c.Runnable() || c.HasSubCommands() {
			fmt.Fprint(out, usage(c))
		}
	})
}

// usage is cobra's usage text, with the flags wrapped to helpWidth and a
// subcommand's shared flags cut to those it uses.
func usage(c *cobra.Command) string {
	var b strings.Builder
	b.WriteString("Usage:\n")
	if c.Runnable() {
		b.WriteString("  " + c.UseLine() + "\n")
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("  " + c.CommandPath() + " [command]\n")
	}
	if c.Example != "" {
		b.WriteString("\nExamples:\n" + reflow(c.Example, helpWidth) + "\n")
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\nAvailable Commands:\n")
		for _, s := range c.Commands() {
			if s.IsAvailableCommand() || s.Name() == "help" {
				b.WriteString(render.WrapHelp(fmt.Sprintf("  %-*s %s", c.NamePadding(), s.Name(), s.Short), helpWidth) + "\n")
			}
		}
	}
	if fs := c.LocalFlags(); fs.HasAvailableFlags() {
		b.WriteString("\nFlags:\n" + strings.TrimRight(fs.FlagUsagesWrapped(helpWidth), " \n") + "\n")
	}
	if fs := sharedUsed(c); fs.HasAvailableFlags() {
		b.WriteString("\nShared flags:\n" + strings.TrimRight(fs.FlagUsagesWrapped(helpWidth), " \n") + "\n")
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\n" + render.WrapHelp("Use \""+c.CommandPath()+" [command] --help\" for more information about a command.", helpWidth) + "\n")
	}
	return b.String()
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
