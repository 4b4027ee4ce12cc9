package cmd

import (
	"encoding/json"
	"runtime/debug"

	"github.com/spf13/cobra"
)

func newCmdTools(o *Options) *cobra.Command {
	return &cobra.Command{
		Use:   "tools",
		Short: "Print the tool definitions as the Messages API tools parameter takes them",
		Example: `  $ todo-shell tools
  $ todo-shell tools --max-items 20`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.changed = cmd.Flags().Changed
			a, err := newApp(o)
			if err != nil {
				return err
			}
			b, err := json.MarshalIndent(a.registry.Definitions(), "", "  ")
			if err != nil {
				return err
			}
			_, err = o.Streams.Out.Write(append(b, '\n'))
			return err
		},
	}
}

// Version is set at build time with -ldflags "-X .../cmd.Version=v1.2.3".
var Version = ""

func newCmdVersion(o *Options) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print todo-shell's version",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := o.Streams.Out.Write([]byte("todo-shell " + versionString() + "\n"))
			return err
		},
	}
}

// versionString is Version, or the module's version, or "(devel)".
func versionString() string {
	if Version != "" {
		return Version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}

// noArgs is cobra.NoArgs reporting bad usage.
func noArgs(cmd *cobra.Command, args []string) error {
	if err := cobra.NoArgs(cmd, args); err != nil {
		return &UsageError{err}
	}
	return nil
}
