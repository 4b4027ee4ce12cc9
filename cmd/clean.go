package cmd

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/todo-shell/todo-shell/internal/session"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/repl/offloads"
)

// cleanOptions are the clean command's flags.
type cleanOptions struct {
	*Options
	OlderThan string
	DryRun    bool
	Now       func() time.Time
}

func newCmdClean(o *Options) *cobra.Command {
	opts := &cleanOptions{Options: o, Now: time.Now}
	cmd := &cobra.Command{
		Use:   "clean",
		Short: "Remove old sessions from the offload directory",
		Long: `clean removes whole sessions (the list, its history, offloaded files, the
transcript) whose last change is older than --older-than. A live session, in use
by a running todo-shell, is never removed. It prints each session removed and
the space freed; --dry-run prints what it would remove and removes nothing.`,
		Example: `  $ todo-shell clean
  $ todo-shell clean --older-than 7d --dry-run
  $ todo-shell clean --older-than 12h --offload-dir /tmp/offload`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			age, err := parseAge(opts.OlderThan)
			if err != nil {
				return &UsageError{fmt.Errorf("--older-than: %w", err)}
			}
			return cleanRun(opts, age)
		},
	}
	cmd.Flags().StringVar(&opts.OlderThan, "older-than", "30d", "remove sessions unchanged for this long (30d, 12h, 90m)")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "say what would be removed; remove nothing")
	return cmd
}

// parseAge reads a duration that may also be given in days: 30d, 1.5d, 12h.
func parseAge(s string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		f, err := strconv.ParseFloat(n, 64)
		if err != nil || f < 0 {
			return 0, fmt.Errorf("%q is not an age (30d, 12h, 90m)", s)
		}
		return time.Duration(f * float64(24*time.Hour)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%q is not an age (30d, 12h, 90m)", s)
	}
	return d, nil
}

func cleanRun(o *cleanOptions, age time.Duration) error {
	removed, err := session.Clean(o.OffloadDir, o.Now().Add(-age), o.DryRun)
	if err != nil {
		return fmt.Errorf("clean: %w", err)
	}
	verb := "removed"
	if o.DryRun {
		verb = "would remove"
	}
	var freed int64
	n, failed := 0, false
	for i := range removed {
		r := &removed[i]
		if r.Skipped != "" {
			fmt.Fprintf(o.Streams.ErrOut, "todo-shell: skipped %s: %s\n", r.ID, render.Sanitize(r.Skipped))
			continue
		}
		if r.Err != nil {
			fmt.Fprintf(o.Streams.ErrOut, "todo-shell: could not remove %s: %v\n", r.ID, r.Err)
			failed = true
			continue
		}
		n++
		freed += r.Bytes
		fmt.Fprintf(o.Streams.Out, "%s %s (last change %s, %s)\n", verb, r.ID, r.LastChange.Local().Format("2006-01-02 15:04"), offloads.HumanSize(r.Bytes))
	}
	sessions := "sessions"
	if n == 1 {
		sessions = "session"
	}
	if o.DryRun {
		fmt.Fprintf(o.Streams.Out, "%d %s, %s would be freed\n", n, sessions, offloads.HumanSize(freed))
	} else {
		fmt.Fprintf(o.Streams.Out, "%d %s removed, %s freed\n", n, sessions, offloads.HumanSize(freed))
	}
	if failed {
		return &ExitError{ExitFailed}
	}
	return nil
}
