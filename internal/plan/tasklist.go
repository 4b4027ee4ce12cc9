package plan

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/todo-shell/todo-shell/internal/readgate"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// taskFile is one task of a Claude Code task list, as Claude Code 2.1.330
// writes it to ~/.claude/tasks/<list-id>/<id>.json (fixture
// testdata/claude-code-2.1.330_tasklist/, beside .lock and .highwatermark).
type taskFile struct {
	ID          string   `json:"id"`
	Subject     string   `json:"subject"`
	Description string   `json:"description"`
	ActiveForm  string   `json:"activeForm"`
	Status      string   `json:"status"`
	Owner       string   `json:"owner"`
	Blocks      []string `json:"blocks"`
	BlockedBy   []string `json:"blockedBy"`
}

// maxTaskFiles caps how many task files a list is read from.
const maxTaskFiles = 10000

// ReadTaskList reads a Claude Code task-list directory as a plan version
// (N, Time and Line left zero): every <id>.json, in the order of their ids,
// each read through the reading gate (no symlink followed, regular files
// only, at most readgate.ListFile bytes). A file that cannot be read or is
// not a task is skipped and counted in skipped.
func ReadTaskList(dir string) (v *Version, skipped int, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, 0, err
	}
	var tasks []taskFile
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") {
			continue
		}
		if len(tasks) >= maxTaskFiles {
			skipped++
			continue
		}
		b, err := readgate.ReadFile(filepath.Join(dir, name), readgate.ListFile)
		if err != nil {
			skipped++
			continue
		}
		var t taskFile
		if json.Unmarshal(b, &t) != nil || t.ID == "" {
			skipped++
			continue
		}
		tasks = append(tasks, t)
	}
	sort.SliceStable(tasks, func(i, j int) bool { return idLess(tasks[i].ID, tasks[j].ID) })
	v = &Version{Tasks: true, Todos: make([]todo.Item, len(tasks)), Keys: make([]string, len(tasks)), Info: make([]ItemInfo, len(tasks))}
	for i := range tasks {
		t := &tasks[i]
		af := t.ActiveForm
		if af == "" {
			af = t.Subject
		}
		v.Todos[i] = todo.Item{Content: t.Subject, Status: t.Status, ActiveForm: af}
		v.Keys[i] = "task:" + t.ID
		v.Info[i] = ItemInfo{ID: t.ID, Owner: t.Owner, Description: t.Description, Blocks: slices.Clone(t.Blocks), BlockedBy: slices.Clone(t.BlockedBy)}
	}
	return v, skipped, nil
}

// idLess orders task ids as numbers when both are.
func idLess(a, b string) bool {
	x, errA := strconv.Atoi(a)
	y, errB := strconv.Atoi(b)
	if errA == nil && errB == nil {
		return x < y
	}
	return a < b
}

// SameList reports whether two versions hold the same items and task
// information.
func SameList(a, b *Version) bool {
	if a == nil || b == nil {
		return a == b
	}
	return slices.Equal(a.Todos, b.Todos) && slices.Equal(a.Keys, b.Keys) &&
		slices.EqualFunc(a.Info, b.Info, func(x, y ItemInfo) bool {
			return x.ID == y.ID && x.Owner == y.Owner && x.Description == y.Description &&
				slices.Equal(x.Blocks, y.Blocks) && slices.Equal(x.BlockedBy, y.BlockedBy)
		})
}
