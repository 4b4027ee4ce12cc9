package complete

import (
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/tools/todo"
)

// TestTemplateCursorInsideFirstContent: Tab after `TodoWrite ` on an empty
// list leaves the cursor inside the template's "content": "" (issue 16.20);
// a real list leaves it after the text.
func TestTemplateCursorInsideFirstContent(t *testing.T) {
	var items []todo.Item
	c := &Completer{Commands: []string{todo.WriteName}, Arg: func(string) (string, string, bool) {
		return todo.EditableArg(items), "the current list", true
	}}
	res := c.Complete("TodoWrite ", len("TodoWrite "))
	if len(res.Candidates) != 1 {
		t.Fatalf("%d candidates", len(res.Candidates))
	}
	cand := res.Candidates[0]
	if !strings.HasSuffix(cand.Insert[:cand.Cursor], `"content": "`) || !strings.HasPrefix(cand.Insert[cand.Cursor:], `"`) {
		t.Errorf("cursor at %d of\n%s", cand.Cursor, cand.Insert)
	}
	items = []todo.Item{{Content: "a", ActiveForm: "A", Status: todo.StatusPending}}
	if got := c.Complete("TodoWrite ", len("TodoWrite ")).Candidates[0].Cursor; got != 0 {
		t.Errorf("a real list puts the cursor at %d", got)
	}
}
