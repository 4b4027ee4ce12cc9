package cmd

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/todo-shell/todo-shell/internal/follow"
)

// agentTarget is what `watch --codex`, `--gemini` and `--opencode` follow;
// ok is false when none of them was asked for.
func agentTarget(wo *WatchOptions) (target follow.Target, what string, ok bool, err error) {
	if !wo.Codex && !wo.Gemini && !wo.Opencode {
		return nil, "", false, nil
	}
	dir := wo.Arg
	if dir == "" {
		if dir, err = os.Getwd(); err != nil {
			return nil, "", true, err
		}
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return nil, "", true, err
	}
	home := wo.Getenv("HOME")
	if home == "" {
		if home, err = os.UserHomeDir(); err != nil {
			return nil, "", true, fmt.Errorf("watch: no home directory: %w", err)
		}
	}
	switch {
	case wo.Codex:
		root := filepath.Join(home, ".codex")
		if d := wo.Getenv("CODEX_HOME"); d != "" {
			root = d
		}
		sessions := filepath.Join(root, "sessions")
		return follow.Codex{SessionsDir: sessions, Dir: dir}, "Codex sessions of " + dir + " (" + sessions + ")", true, nil
	case wo.Gemini:
		chats := follow.GeminiChatsDir(filepath.Join(home, ".gemini"), dir)
		return follow.Gemini{ChatsDir: chats}, "Gemini CLI sessions of " + dir + " (" + chats + ")", true, nil
	}
	return nil, "", true, fmt.Errorf("watch --opencode: opencode 1.x keeps its sessions in a SQLite database " +
		"(~/.local/share/opencode/opencode.db), which todo-shell does not read; replay an export instead: " +
		"opencode export SESSION > s.json && todo-shell replay s.json")
}
