package e2e

import (
	"cmp"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The flow of docs/architecture.md, one way: line → router → executor →
// handler → store → event → view. The views draw; nothing below them knows
// them. These are the view side (the packages that draw, and the Charm
// stack they draw with) and the front ends that wire the two sides; every
// other package of the module is the engine, new ones included.
var (
	module = "github.com/todo-shell/todo-shell"
	views  = []string{"render", "repl", "repl/...", "internal/painter", "internal/watchui", "internal/replayui", "internal/statusline", "internal/headless"}
	// main, the cobra commands, the end-to-end tests, and the hooks' front
	// end, which words what internal/hold (the engine) decides: the Stop
	// hook's reason and note, the shared plan as context.
	wiring = []string{"", "cmd", "e2e", "internal/hook"}
	charm  = []string{"charm.land/bubbletea/v2", "charm.land/bubbles/v2/...", "charm.land/lipgloss/v2"}
)

// TestTheFlowIsOneWay fails when a package of the engine imports a view,
// the wiring or the Charm stack, directly or through another package: the
// store's change reaches a view only as an event the view subscribes to
// (tools.Broker), and untrusted text is neutralised where it is drawn. It
// also keeps render, pure functions of data to strings, off Bubble Tea.
func TestTheFlowIsOneWay(t *testing.T) {
	t.Parallel()
	deps := moduleDeps(t)
	if len(deps) < 10 {
		t.Fatalf("go list found %d packages", len(deps))
	}
	for pkg, ds := range deps {
		rel := strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/")
		var banned []string
		switch {
		case matches(rel, wiring):
			continue
		case rel == "render":
			banned = []string{"charm.land/bubbletea/v2", "charm.land/bubbles/v2/..."}
		case matches(rel, views):
			continue
		default:
			banned = charm
			for _, p := range append(slices.Clone(views), wiring[1:]...) {
				banned = append(banned, module+"/"+p)
			}
		}
		for _, d := range ds {
			if matches(d, banned) {
				t.Errorf("%s depends on %s: the engine reaches up to the view (docs/architecture.md, \"The flow, one way\")", cmp.Or(rel, "main"), strings.TrimPrefix(d, module+"/"))
			}
		}
	}
}

// moduleDeps is every package of the module with what it depends on (its
// non-test imports, transitively), as go list says.
func moduleDeps(t *testing.T) map[string][]string {
	t.Helper()
	list := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", "./...")
	list.Dir = ".." // the module's top: every package of it
	out, err := list.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		deps[f[0]] = f[1:]
	}
	return deps
}

// matches reports whether pkg is one of pats; "x/..." matches x and
// everything under it.
func matches(pkg string, pats []string) bool {
	for _, p := range pats {
		if base, ok := strings.CutSuffix(p, "/..."); ok {
			if pkg == base || strings.HasPrefix(pkg, base+"/") {
				return true
			}
		} else if pkg == p {
			return true
		}
	}
	return false
}
