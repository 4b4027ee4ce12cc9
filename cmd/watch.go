package cmd

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/todo-shell/todo-shell/internal/follow"
	"github.com/todo-shell/todo-shell/internal/watchui"
	"github.com/todo-shell/todo-shell/tools/offload"
)

// WatchOptions are the flags of `todo-shell watch`.
type WatchOptions struct {
	*Options
	Arg    string
	Claude bool
	Once   bool
	JSON   bool
}

func newCmdWatch(o *Options) *cobra.Command {
	wo := &WatchOptions{Options: o}
	cmd := &cobra.Command{
		Use:   "watch [id]",
		Short: "Show a session's task panel live, in another terminal",
		Long: `Watch shows the task panel of a todo-shell session and redraws it whenever the plan
changes: run it in a tmux split beside an agent. Without an ID it follows the most
recent session in the offload directory and moves to each newer one that starts.

With --claude it shows the plan of a Claude Code session instead: the newest transcript
under ~/.claude/projects/ for DIR (default: the current directory), following its
TodoWrite, TaskCreate and TaskUpdate calls as the file grows. That transcript format is
Claude Code's own and not promised to stay the same.

q or Ctrl+C quits.`,
		Example: `  $ todo-shell watch
  $ todo-shell watch 20261120-0900-ab12
  $ todo-shell watch --once
  $ todo-shell watch --json | jq -c '.completed'
  $ todo-shell watch --claude ~/src/my-app`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return &UsageError{fmt.Errorf("watch takes at most one argument")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.changed = cmd.Flags().Changed
			if len(args) == 1 {
				wo.Arg = args[0]
			}
			return watchRun(wo)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&wo.Claude, "claude", false, "follow a Claude Code session of DIR (default: the current directory)")
	f.BoolVar(&wo.Once, "once", false, "print the panel once and exit")
	f.BoolVar(&wo.JSON, "json", false, "print each plan version as a JSON line as it happens")
	return cmd
}

// claudeRoot is where Claude Code keeps its project transcripts:
// $CLAUDE_CONFIG_DIR/projects, or ~/.claude/projects.
func claudeRoot(getenv func(string) string) (string, error) {
	if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, "projects"), nil
	}
	home := getenv("HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("watch --claude: no home directory: %w", err)
		}
		home = h
	}
	return filepath.Join(home, ".claude", "projects"), nil
}

// watchTarget turns the options into what to follow.
func watchTarget(wo *WatchOptions) (follow.Target, string, error) {
	if wo.Claude {
		dir := wo.Arg
		if dir == "" {
			d, err := os.Getwd()
			if err != nil {
				return nil, "", err
			}
			dir = d
		}
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, "", err
		}
		root, err := claudeRoot(wo.Getenv)
		if err != nil {
			return nil, "", err
		}
		pd := follow.ClaudeProjectDir(root, abs)
		return follow.Claude{ProjectDir: pd}, "Claude Code sessions of " + abs + " (" + pd + ")", nil
	}
	if wo.Arg != "" {
		if err := offload.CheckID("session id", wo.Arg); err != nil {
			return nil, "", &UsageError{err}
		}
	}
	return follow.Session{Dir: wo.OffloadDir, ID: wo.Arg}, "sessions in " + wo.OffloadDir, nil
}

func watchRun(wo *WatchOptions) error {
	limits, err := limitsOf(wo.Options)
	if err != nil {
		return err
	}
	target, what, err := watchTarget(wo)
	if err != nil {
		return err
	}
	if wo.Once && !wo.Claude && wo.Arg != "" {
		// Asked once about one session: a session that is not there is an
		// error, not an empty plan (a typo would look like "no plan yet").
		if _, err := os.Stat(filepath.Join(wo.OffloadDir, wo.Arg)); err != nil {
			return fmt.Errorf("watch: no session %s in %s (see todo-shell sessions)", wo.Arg, wo.OffloadDir)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return watchui.Run(ctx, watchui.Options{
		Target:  target,
		What:    what,
		Once:    wo.Once,
		JSON:    wo.JSON,
		NoColor: wo.NoColor || wo.Getenv("NO_COLOR") != "",
		Limits:  limits,
		In:      wo.Streams.In,
		Out:     wo.Streams.Out,
	})
}
