package cmd

import (
	"encoding/json"

	"github.com/spf13/cobra"
)

func newCmdTools(o *Options) *cobra.Command {
	return &cobra.Command{
		Use:   "tools",
		Short: "Print the tool definitions, as the Messages API's tools parameter",
		Example: `  $ todo-shell tools
  $ todo-shell tools --max-items 20`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
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

// noArgs is cobra.NoArgs reporting bad usage.
func noArgs(cmd *cobra.Command, args []string) error {
	if err := cobra.NoArgs(cmd, args); err != nil {
		return &UsageError{err}
	}
	return nil
}
