package cmd

import (
	"context"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/todo-shell/todo-shell/internal/allplans"
	"github.com/todo-shell/todo-shell/internal/opencodedb"
	"github.com/todo-shell/todo-shell/internal/watchui"
	"github.com/todo-shell/todo-shell/repl/history"
)

// allConfig is where `watch --all` looks.
func allConfig(wo *WatchOptions) (allplans.Config, error) {
	root, err := claudeRoot(wo.Getenv)
	if err != nil {
		return allplans.Config{}, err
	}
	home := wo.Getenv("HOME")
	if home == "" {
		if home, err = os.UserHomeDir(); err != nil {
			return allplans.Config{}, err
		}
	}
	codex := filepath.Join(home, ".codex")
	if d := wo.Getenv("CODEX_HOME"); d != "" {
		codex = d
	}
	off := wo.OffloadDir
	if off != "" {
		if off, err = filepath.Abs(off); err != nil {
			return allplans.Config{}, err
		}
	}
	plans := ""
	if base := history.DefaultDir(wo.Getenv); base != "" {
		plans = filepath.Join(base, "plans") // as planDir: the shared plans (--plan NAME)
	}
	return allplans.Config{Home: home, ClaudeDir: filepath.Dir(root), CodexDir: codex, OffloadDir: off, PlansDir: plans,
		OpencodeDB: opencodedb.Path(wo.Getenv, home)}, nil
}

// watchAll runs `watch --all`.
func watchAll(wo *WatchOptions) error {
	cfg, err := allConfig(wo)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return watchui.RunAll(ctx, watchui.AllOptions{
		Config:  cfg,
		Once:    wo.Once,
		NoColor: wo.NoColor || wo.Getenv("NO_COLOR") != "",
		In:      wo.Streams.In,
		Out:     wo.Streams.Out,
	})
}
