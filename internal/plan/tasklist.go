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
	var skips reasons
	var tasks []taskFile
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") {
			continue
		}
		if t, why := readTask(budget, filepath.Join(dir, name)); why != "" {
			skips.add(why)
		} else if t != nil {
			tasks = append(tasks, *t)
		}
	}
	skipped = skips.lines(filepath.Base(dir))
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

// readTask reads one task file within budget: the task, or why it is
// skipped (neither for a file removed since the listing).
func readTask(budget *readgate.Budget, path string) (*taskFile, string) {
	b, err := budget.ReadFile(path, maxTaskFile)
	switch {
	case errors.Is(err, readgate.ErrSeen):
		return nil, "a hard link to a file already read"
	case errors.Is(err, readgate.ErrBudget):
		return nil, fmt.Sprintf("past what one read takes (%d files, %d MiB)", maxTaskFiles, maxTaskListBytes>>20)
	case errors.Is(err, readgate.ErrTooLarge):
		return nil, fmt.Sprintf("over %d MiB", maxTaskFile>>20)
	case errors.Is(err, fs.ErrNotExist):
		return nil, ""
	case err != nil:
		return nil, readgate.Reason(err)
	}
	var t taskFile
	if json.Unmarshal(b, &t) != nil || t.ID == "" {
		return nil, "not a task"
	}
	return &t, ""
}

// reasons counts files skipped by reason, in the order first met.
type reasons struct {
	order []string
	n     map[string]int
}

func (r *reasons) add(why string) {
	if r.n == nil {
		r.n = map[string]int{}
	}
	if r.n[why] == 0 {
		r.order = append(r.order, why)
	}
	r.n[why]++
}

// lines says them, one line a reason, for the list named list.
func (r *reasons) lines(list string) []string {
	var out []string
	for _, why := range r.order {
		out = append(out, fmt.Sprintf("%s: %d file(s) skipped: %s", list, r.n[why], why))
	}
	return out
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
