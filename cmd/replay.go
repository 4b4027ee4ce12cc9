package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/todo-shell/todo-shell/internal/replayui"
	"github.com/todo-shell/todo-shell/internal/session"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools/offload"
	"github.com/todo-shell/todo-shell/tools/task"
)

// ReplayOptions are the flags of `todo-shell replay`.
type ReplayOptions struct {
	*Options
	File    string
	Summary bool
	JSON    bool
	Step    bool
	Speed   float64
}

func newCmdReplay(o *Options) *cobra.Command {
	ro := &ReplayOptions{Options: o}
	cmd := &cobra.Command{
		Use:   "replay FILE|DIR|ID|DB#SESSION",
		Short: "Replay how a recorded session's plan evolved",
		Long: `Replay reads a todo-shell transcript.jsonl or todos.jsonl, a Claude Code session
transcript (~/.claude/projects/<dir>/<uuid>.jsonl), a Codex rollout
(~/.codex/sessions/…/rollout-*.jsonl), a Gemini CLI session file or an opencode export,
and shows each version of the plan; the kind is told from the records themselves.
Given a session directory or a session id, it replays that session's transcript.jsonl,
or its todos.jsonl when it has no transcript. Given opencode's database
(~/.local/share/opencode/opencode.db), it replays the most recently updated session that
has a todowrite plan, or the session DB#SESSION names.

On a terminal it plays the session back in the shell's look: each tool call as a line,
the assistant's text, and the task panel as each plan version arrives. With --summary,
or whenever standard output is not a terminal, it prints a timeline: one block per
version with its counts and what changed (added, started, completed, and items
dropped without being completed, flagged), plus every rule of todo-shell's validator
the version breaks. --json prints one object per version.`,
		Example: `  $ todo-shell replay .offload/my-session/transcript.jsonl
  $ todo-shell replay --step ~/.claude/projects/-home-me-app/6f1c2a9e.jsonl
  $ todo-shell replay --summary .offload/my-session/todos.jsonl
  $ todo-shell replay my-session
  $ todo-shell replay --summary ~/.local/share/opencode/opencode.db
  $ todo-shell replay --json session.jsonl | jq '.dropped'`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return &UsageError{fmt.Errorf("replay takes one FILE, DIR or session ID")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			ro.File = args[0]
			if ro.Speed <= 0 {
				return &UsageError{fmt.Errorf("--speed must be more than 0, got %g", ro.Speed)}
			}
			if ro.JSON && (ro.Summary || ro.Step) {
				return &UsageError{fmt.Errorf("--json cannot be used with --summary or --step")}
			}
			return replayRun(ro)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&ro.Summary, "summary", false, "print the timeline of plan versions (the default when stdout is not a terminal)")
	f.BoolVar(&ro.JSON, "json", false, "print one JSON object per plan version")
	f.BoolVar(&ro.Step, "step", false, "step through the playback: space or → next, ← back, q quit (a line under the panel shows the version and the keys)")
	f.Float64Var(&ro.Speed, "speed", 1, "play N times faster than recorded (each gap is capped at one second)")
	return cmd
}

func replayRun(ro *ReplayOptions) error {
	limits, err := limitsOf(ro.Options)
	if err != nil {
		return err
	}
	arg, ocSession := opencodeSession(ro.File)
	file, err := replayFile(arg, ro.OffloadDir)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = replayui.Run(ctx, replayui.Options{
		File:    file,
		Session: ocSession,
		Summary: ro.Summary,
		JSON:    ro.JSON,
		Step:    ro.Step,
		Speed:   ro.Speed,
		NoColor: ro.NoColor || ro.Getenv("NO_COLOR") != "",
		Limits:  limits,
		In:      ro.Streams.In,
		Out:     ro.Streams.Out,
		ErrOut:  ro.Streams.ErrOut,
	})
	if errors.Is(err, replayui.ErrStepNeedsKeys) {
		return &UsageError{err}
	}
	return err
}

// opencodeSession splits DB#SESSION, a session of opencode's database
// (as watch --all names it), when arg is no file and DB is one.
func opencodeSession(arg string) (file, id string) {
	if _, err := os.Stat(arg); err == nil {
		return arg, ""
	}
	i := strings.LastIndexByte(arg, '#')
	if i <= 0 || i == len(arg)-1 {
		return arg, ""
	}
	if st, err := os.Stat(arg[:i]); err != nil || !st.Mode().IsRegular() {
		return arg, ""
	}
	return arg[:i], arg[i+1:]
}

// replayFile turns replay's argument into the file to read: a file as
// given; a session directory (its transcript.jsonl when it has one, else
// its todos.jsonl, else its tasks.jsonl); or the id of a session in the
// offload directory, likewise. Any other directory is refused: a Claude
// Code task list keeps no history.
func replayFile(arg, offloadDir string) (string, error) {
	dir := arg
	st, err := os.Stat(arg)
	byID := false
	switch {
	case err == nil && !st.IsDir():
		return arg, nil
	case err != nil && offload.CheckID("session id", arg) == nil:
		dir, byID = filepath.Join(offloadDir, arg), true
		if st, err = os.Stat(dir); err != nil || !st.IsDir() {
			return arg, nil // not a session either: the open names the file
		}
	case err != nil:
		return arg, nil
	}
	for _, name := range []string{session.TranscriptFile, session.JournalFile, task.JournalFile} {
		if st, err := os.Stat(filepath.Join(dir, name)); err == nil && st.Mode().IsRegular() && st.Size() > 0 {
			return filepath.Join(dir, name), nil
		}
	}
	if byID {
		return "", fmt.Errorf("replay: session %s has no %s, %s or %s to replay", render.Sanitize(arg), session.TranscriptFile, session.JournalFile, task.JournalFile)
	}
	return "", taskListReplayError(render.Sanitize(arg))
}
