package plan

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
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

// What one read of a task list may take: at most maxTaskFiles files of at
// most maxTaskFile bytes each, maxTaskListBytes in all, each file counted
// once however many hard links name it.
const (
	maxTaskFiles     = 10000
	maxTaskFile      = 1 << 20
	maxTaskListBytes = 16 << 20
)

// ReadTaskList reads a Claude Code task-list directory as a plan version
// (N, Time and Line left zero): every <id>.json, in the order of their ids,
// each read through the reading gate (no symlink followed, regular files
// only) within one budget for the whole list (maxTaskFiles files,
// maxTaskFile bytes each, maxTaskListBytes in all; a file that is a hard
// link to one already read is read once). What cannot be read or is not
// a task is skipped, and said in skipped: one line for each reason.
func ReadTaskList(dir string) (v *Version, skipped []string, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	budget := readgate.NewBudget(maxTaskListBytes, maxTaskFiles)
	why := map[string]int{}
	var order []string
	skip := func(reason string) {
		if why[reason] == 0 {
			order = append(order, reason)
		}
		why[reason]++
	}
	var tasks []taskFile
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") {
			continue
		}
		b, err := budget.ReadFile(filepath.Join(dir, name), maxTaskFile)
		switch {
		case errors.Is(err, readgate.ErrSeen):
			skip("a hard link to a file already read")
			continue
		case errors.Is(err, readgate.ErrBudget):
			skip(fmt.Sprintf("past what one read takes (%d files, %d MiB)", maxTaskFiles, maxTaskListBytes>>20))
			continue
		case errors.Is(err, readgate.ErrTooLarge):
			skip(fmt.Sprintf("over %d MiB", maxTaskFile>>20))
			continue
		case errors.Is(err, fs.ErrNotExist):
			continue // removed since the listing
		case err != nil:
			skip(readgate.Reason(err))
			continue
		}
		var t taskFile
		if json.Unmarshal(b, &t) != nil || t.ID == "" {
			skip("not a task")
			continue
		}
		tasks = append(tasks, t)
	}
	for _, r := range order {
		skipped = append(skipped, fmt.Sprintf("%s: %d file(s) skipped: %s", filepath.Base(dir), why[r], r))
	}
	sort.SliceStable(tasks, func(i, j int) bool { return idLess(tasks[i].ID, tasks[j].ID) })
	v = &Version{Tasks: true, Todos: make([]todo.Item, len(tasks)), Keys: make([]string, len(tasks)), Info: make([]ItemInfo, len(tasks))}
	for i := range tasks {
		t := &tasks[i]
		af := t.ActiveForm
		if af == "" {
			af = t.Subject
		}
		v.Todos[i] = todo.Item{Content: t.Subject, Status: knownStatus(t.Status), ActiveForm: af}
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
