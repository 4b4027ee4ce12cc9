package cmd

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/todo-shell/todo-shell/internal/plans"
	"github.com/todo-shell/todo-shell/internal/session"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools/offload"
)

// cleanOptions are the clean command's flags.
type cleanOptions struct {
	*Options
	// RemovePlan is --plan NAME: remove that shared plan, and nothing else.
	RemovePlan string
	OlderThan  string
	DryRun     bool
	Now        func() time.Time
}

func newCmdClean(o *Options) *cobra.Command {
	opts := &cleanOptions{Options: o, Now: time.Now}
	cmd := &cobra.Command{
		Use:   "clean",
		Short: "Remove old sessions and shared plans",
		Long: `clean removes whole sessions (the list, its history, offloaded files, the
transcript) whose last change is older than --older-than, and the shared task
plans ($XDG_STATE_HOME/todo-shell/plans/NAME) unchanged for as long. A live
session, and a plan a running todo-shell uses, are never removed. It prints
each one removed and the space freed; --dry-run prints what it would remove
and removes nothing. With --plan NAME it removes that plan, whatever its age,
and nothing else.`,
		Example: `  $ todo-shell clean
  $ todo-shell clean --older-than 7d --dry-run
  $ todo-shell clean --older-than 12h --offload-dir /tmp/offload
  $ todo-shell clean --plan build`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			age, err := parseAge(opts.OlderThan)
			if err != nil {
				return &UsageError{fmt.Errorf("--older-than: %w", err)}
			}
			if opts.RemovePlan != "" {
				return cleanPlan(opts)
			}
			return cleanRun(opts, age)
		},
	}
	cmd.Flags().StringVar(&opts.OlderThan, "older-than", "30d", "remove sessions and shared plans unchanged for this long (30d, 12h, 90m)")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "say what would be removed; remove nothing")
	// Its own --plan, in place of the shared one: TODO_SHELL_PLAN never
	// names a plan to remove.
	cmd.Flags().StringVar(&opts.RemovePlan, "plan", "", "remove the shared plan NAME now, whatever its age, unless a running todo-shell uses it; nothing else")
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

// reportPlans prints what clean did with each shared plan (verb
// "removed" or "would remove"), and returns how many went, the space
// freed, and whether one failed.
func reportPlans(o *cleanOptions, gone []plans.Removed, verb string) (n int, freed int64, failed bool) {
	for i := range gone {
		r := &gone[i]
		name := render.Sanitize(r.Name)
		switch {
		case r.Skipped != "":
			fmt.Fprintf(o.Streams.ErrOut, "todo-shell: skipped plan %s: %s\n", name, render.Sanitize(r.Skipped))
		case r.Err != nil:
			fmt.Fprintf(o.Streams.ErrOut, "todo-shell: could not remove plan %s: %v\n", name, r.Err)
			failed = true
		default:
			n++
			freed += r.Bytes
			fmt.Fprintf(o.Streams.Out, "%s plan %s (last change %s, %s)\n", verb, name, r.LastChange.Local().Format("2006-01-02 15:04"), render.HumanSize(r.Bytes))
		}
	}
	return n, freed, failed
}

// cleanPlan is clean --plan NAME: that plan goes, unless a process uses it.
func cleanPlan(o *cleanOptions) error {
	name := o.RemovePlan
	if err := offload.CheckID("plan name", name); err != nil {
		return &UsageError{fmt.Errorf("--plan: %w", err)}
	}
	dir, err := planDir(o.Options, name)
	if err != nil {
		return err
	}
	info, ok := plans.Stat(dir)
	switch {
	case !ok:
		return fmt.Errorf("clean: no plan %s in %s (see todo-shell sessions)", render.Sanitize(name), filepath.Dir(dir))
	case info.InUse:
		return fmt.Errorf("clean: plan %s is %w; it was not removed", render.Sanitize(name), plans.ErrInUse)
	}
	verb := "removed"
	if o.DryRun {
		verb = "would remove"
	} else if err := plans.Remove(dir); err != nil {
		return fmt.Errorf("clean: plan %s: %w", render.Sanitize(name), err)
	}
	fmt.Fprintf(o.Streams.Out, "%s plan %s (last change %s, %s)\n", verb, render.Sanitize(name), info.LastChange.Local().Format("2006-01-02 15:04"), render.HumanSize(info.Bytes))
	return nil
}

func cleanRun(o *cleanOptions, age time.Duration) error {
	removed, err := session.Clean(o.OffloadDir, o.Now().Add(-age), o.DryRun)
	if err != nil {
		return fmt.Errorf("clean: %w", err)
	}
	var gone []plans.Removed
	if root := plansRoot(o.Options); root != "" {
		if gone, err = plans.Clean(root, o.Now().Add(-age), o.DryRun); err != nil {
			fmt.Fprintln(o.Streams.ErrOut, "todo-shell: warning: shared plans not cleaned: "+render.Sanitize(err.Error()))
		}
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
		fmt.Fprintf(o.Streams.Out, "%s %s (last change %s, %s)\n", verb, r.ID, r.LastChange.Local().Format("2006-01-02 15:04"), render.HumanSize(r.Bytes))
	}
	np, pfreed, pfailed := reportPlans(o, gone, verb)
	freed += pfreed
	failed = failed || pfailed
	what := fmt.Sprintf("%d %s", n, plural(n, "session", "sessions"))
	if np > 0 {
		what += fmt.Sprintf(" and %d %s", np, plural(np, "plan", "plans"))
	}
	if o.DryRun {
		fmt.Fprintf(o.Streams.Out, "%s, %s would be freed\n", what, render.HumanSize(freed))
	} else {
		fmt.Fprintf(o.Streams.Out, "%s removed, %s freed\n", what, render.HumanSize(freed))
	}
	if failed {
		return &ExitError{ExitFailed}
	}
	return nil
}
