package cmd

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/todo-shell/todo-shell/internal/follow"
	"github.com/todo-shell/todo-shell/internal/opencodedb"
	"github.com/todo-shell/todo-shell/internal/watchui"
	"github.com/todo-shell/todo-shell/tools/offload"
)

// watched is what watch follows: the target, what it is (for the
// header: "Codex sessions of DIR (WHERE)"), and, for an agent's sessions
// of a directory, what watch --once says when it finds none.
type watched struct {
	target follow.Target
	what   string
	none   string
}

// noSessionText is watch --once's answer when no session of agent was
// found for dir: one sentence that says where it looked.
func noSessionText(agent, dir, where string) string {
	return "watch: no " + agent + " session of " + dir + " found (looked in " + where + ")"
}

// agentWatched is watched for one agent's sessions of dir, kept in where.
func agentWatched(t follow.Target, agent, dir, where string) watched {
	return watched{target: t, what: agent + " sessions of " + dir + " (" + where + ")", none: noSessionText(agent, dir, where)}
}

// onceOrNone is src with its Once saying none (an error: exit 1) when no
// session was found: no file or directory where the agent keeps them, or
// none of them for the directory.
func onceOrNone(src watchui.Source, none string) watchui.Source {
	inner := src.Once
	src.Once = func() (follow.Update, error) {
		u, err := inner()
		if errors.Is(err, fs.ErrNotExist) || (err == nil && u.Source == "") {
			return follow.Update{}, errors.New(none)
		}
		return u, err
	}
	return src
}

// agentTarget is what `watch --codex`, `--gemini`, `--opencode` and
// `--claude-tasks` follow; ok is false when none of them was asked for.
func agentTarget(wo *WatchOptions) (w watched, ok bool, err error) {
	if wo.ClaudeTasks {
		t, what, err := taskListTarget(wo)
		return watched{target: t, what: what}, true, err
	}
	if !wo.Codex && !wo.Gemini && !wo.Opencode {
		return watched{}, false, nil
	}
	var dir string
	if dir, err = watchDir(wo); err != nil {
		return watched{}, true, err
	}
	home := wo.Getenv("HOME")
	if home == "" {
		if home, err = os.UserHomeDir(); err != nil {
			return watched{}, true, fmt.Errorf("watch: no home directory: %w", err)
		}
	}
	switch {
	case wo.Codex:
		root := filepath.Join(home, ".codex")
		if d := wo.Getenv("CODEX_HOME"); d != "" {
			root = d
		}
		sessions := filepath.Join(root, "sessions")
		return agentWatched(follow.Codex{SessionsDir: sessions, Dir: dir}, "Codex", dir, sessions), true, nil
	case wo.Gemini:
		chats := follow.GeminiChatsDir(filepath.Join(home, ".gemini"), dir)
		return agentWatched(follow.Gemini{ChatsDir: chats}, "Gemini CLI", dir, chats), true, nil
	}
	db := opencodedb.Path(wo.Getenv, home)
	if db == "" {
		return watched{}, true, errors.New("watch: OPENCODE_DB is :memory:, so opencode keeps its sessions in no file")
	}
	return agentWatched(follow.Opencode{DB: db, Dir: dir}, "opencode", dir, db), true, nil
}

// watchDir is the directory whose agent sessions watch follows: DIR, or
// the current directory, made absolute.
func watchDir(wo *WatchOptions) (string, error) {
	dir := wo.Arg
	if dir == "" {
		d, err := os.Getwd()
		if err != nil {
			return "", err
		}
		dir = d
	}
	return filepath.Abs(dir)
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
