package cmd

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/todo-shell/todo-shell/internal/follow"
	"github.com/todo-shell/todo-shell/internal/opencodedb"
	"github.com/todo-shell/todo-shell/tools/offload"
)

// agentTarget is what `watch --codex`, `--gemini` and `--opencode` follow;
// ok is false when none of them was asked for.
func agentTarget(wo *WatchOptions) (target follow.Target, what string, ok bool, err error) {
	if wo.ClaudeTasks {
		t, what, err := taskListTarget(wo)
		return t, what, true, err
	}
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
	db := opencodedb.Path(wo.Getenv, home)
	if db == "" {
		return nil, "", true, errors.New("watch: OPENCODE_DB is :memory:, so opencode keeps its sessions in no file")
	}
	return follow.Opencode{DB: db, Dir: dir}, "opencode sessions of " + dir + " (" + db + ")", true, nil
}

// taskListTarget is the Claude Code task list `watch --claude-tasks [LIST]`
// follows: LIST as a directory when it holds a path separator, else as a
// list id under ~/.claude/tasks/; with no LIST, the list
// CLAUDE_CODE_TASK_LIST_ID names, or else the one of the newest Claude
// Code session of the current directory (a session's own list is named by
// its session id).
func taskListTarget(wo *WatchOptions) (follow.Target, string, error) {
	root, err := claudeRoot(wo.Getenv)
	if err != nil {
		return nil, "", err
	}
	tasks := filepath.Join(filepath.Dir(root), "tasks")
	id := wo.Arg
	if strings.ContainsRune(id, filepath.Separator) {
		dir, err := filepath.Abs(id)
		if err != nil {
			return nil, "", err
		}
		return follow.TaskList{Dir: dir}, "Claude Code task list " + dir, nil
	}
	if id == "" {
		id = wo.Getenv("CLAUDE_CODE_TASK_LIST_ID")
	}
	if id == "" {
		cwd, err := os.Getwd()
		if err != nil {
			return nil, "", err
		}
		u, err := follow.Once(follow.Claude{ProjectDir: follow.ClaudeProjectDir(root, cwd)})
		if err != nil || u.Source == "" {
			return nil, "", fmt.Errorf("watch --claude-tasks: no Claude Code session of %s to take the task list of; name one: watch --claude-tasks LIST (a directory of %s)", cwd, tasks)
		}
		id = strings.TrimSuffix(u.Source, ".jsonl")
	}
	if err := offload.CheckID("task list id", id); err != nil {
		return nil, "", &UsageError{err}
	}
	dir := filepath.Join(tasks, id)
	return follow.TaskList{Dir: dir}, "Claude Code task list " + dir, nil
}

// taskListReplayError is replay's answer for a task-list directory.
func taskListReplayError(dir string) error {
	return fmt.Errorf("replay: %s is a directory; a Claude Code task list holds only the present, not its history: "+
		"replay the session's transcript (~/.claude/projects/<dir>/<session>.jsonl), or follow the list with watch --claude-tasks", dir)
}
