package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/todo-shell/todo-shell/internal/session"
	"github.com/todo-shell/todo-shell/render"
)

// sessionsOptions are the sessions command's flags.
type sessionsOptions struct {
	*Options
	JSON bool
	Now  func() time.Time
}

func newCmdSessions(o *Options) *cobra.Command {
	opts := &sessionsOptions{Options: o, Now: time.Now}
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "List the sessions in the offload directory, most recent first",
		Long: `sessions lists the sessions under the offload directory, most recently changed
first: id, last change, mode, progress (done/total), what is in progress, the
offloaded files (count and size) and the agent's turns. A live session (in use
by a running todo-shell) is marked with its process id.

With --json it prints one JSON object per line instead.`,
		Example: `  $ todo-shell sessions
  $ todo-shell sessions --json | jq -r 'select(.live) | .id'
  $ todo-shell --resume "$(todo-shell sessions --json | head -n1 | jq -r .id)"`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return sessionsRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "one JSON object per line")
	return cmd
}

func sessionsRun(o *sessionsOptions) error {
	list, err := session.List(o.OffloadDir)
	if err != nil {
		return fmt.Errorf("list sessions: %w", err)
	}
	if o.JSON {
		enc := json.NewEncoder(o.Streams.Out)
		enc.SetEscapeHTML(false)
		for i := range list {
			if err := enc.Encode(&list[i]); err != nil {
				return err
			}
		}
		return nil
	}
	if len(list) == 0 {
		fmt.Fprintf(o.Streams.ErrOut, "no sessions in %s\n", o.OffloadDir)
		return nil
	}
	writeSessionTable(o.Streams.Out, list, o.Now(), isTerminal(o.Streams.Out))
	return nil
}

// writeSessionTable prints list as a table.
func writeSessionTable(w io.Writer, list []session.Info, now time.Time, safe bool) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tCHANGED\tMODE\tDONE\tIN PROGRESS\tFILES\tTURNS\tLIVE")
	for i := range list {
		s := &list[i]
		mode := s.Mode
		if mode == "" {
			mode = "-"
		}
		doing := s.InProgress
		if safe {
			doing = render.SanitizeOutput(doing)
		}
		doing = strings.Join(strings.Fields(doing), " ")
		if r := []rune(doing); len(r) > 40 {
			doing = string(r[:39]) + "…"
		}
		if doing == "" {
			doing = "-"
		}
		files := "-"
		if s.Files > 0 {
			files = fmt.Sprintf("%d (%s)", s.Files, humanBytes(s.FilesBytes))
		}
		live := ""
		if s.Live {
			live = "pid " + strconv.Itoa(s.PID)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d/%d\t%s\t%s\t%d\t%s\n", s.ID, ago(now.Sub(s.LastChange)), mode, s.Done, s.Total, doing, files, s.AgentTurns, live)
	}
	_ = tw.Flush() // standard output: nothing to do on failure
}

// ago says how long ago d was, roughly.
func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d/time.Minute))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d/time.Hour))
	default:
		return fmt.Sprintf("%dd ago", int(d/(24*time.Hour)))
	}
}

// humanBytes writes n as 512 B, 1.2 KB, 3.4 MB.
func humanBytes(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	f, units := float64(n)/unit, "KMGTPE"
	i := 0
	for f >= unit && i < len(units)-1 {
		f /= unit
		i++
	}
	return fmt.Sprintf("%.1f %cB", f, units[i])
}
