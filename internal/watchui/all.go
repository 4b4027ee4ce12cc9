package watchui

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/todo-shell/todo-shell/internal/allplans"
	"github.com/todo-shell/todo-shell/internal/painter"
	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// AllOptions say how `watch --all` shows every live plan of the machine.
type AllOptions struct {
	Config  allplans.Config // where to look
	Once    bool            // print the boxes once and return
	NoColor bool
	In      io.Reader // the keys; a terminal or anything else for none
	Out     io.Writer
}

// RunAll shows every live plan, one box each, until ctx ends or q is
// pressed: on a terminal with a pick (↑/↓) that Enter opens and Esc
// closes; otherwise as text at each change, or once.
func RunAll(ctx context.Context, o AllOptions) error {
	w, err := allplans.New(o.Config)
	if err != nil {
		return err
	}
	defer func() { _ = w.Close() }()
	out, isFile := o.Out.(*os.File)
	if o.Once || !isFile || !painter.IsTerminal(out) {
		st := render.PlainStyles()
		if o.Once {
			_, err := io.WriteString(o.Out, allBoxes(w.Entries(), w.Warning(), -1, 80, 1<<20, time.Now(), &st)+"\n")
			return err
		}
		bw := bufio.NewWriter(o.Out)
		return w.Run(ctx, func(es []allplans.Entry, warning string) {
			fmt.Fprintf(bw, "%s\n\n", allBoxes(es, warning, -1, 80, 1<<20, time.Now(), &st))
			_ = bw.Flush() // a reader that went away: nothing to tell
		})
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	updates := make(chan allUpdate, 16)
	errc := make(chan error, 1)
	go func() {
		errc <- w.Run(ctx, func(es []allplans.Entry, warning string) {
			select {
			case updates <- allUpdate{es, warning}:
			case <-ctx.Done():
			}
		})
	}()
	return allScreen(ctx, o, out, updates, errc)
}

// allScreen draws the boxes on the alternate screen through the painter.
func allScreen(ctx context.Context, o AllOptions, out *os.File, updates <-chan allUpdate, errc <-chan error) error {
	scr, err := openAltScreen(o.In, out)
	if err != nil {
		return err
	}
	defer scr.close()
	keys := make(chan allKey, 16)
	if scr.tty.In != nil {
		go readAllKeys(scr.tty.In, keys)
	}
	st, width := Styles(out, o.NoColor)
	v := &allView{st: st, width: width, height: 24}
	if _, h, err := scr.tty.Size(); err == nil && h > 0 {
		v.height = h
	}
	// Ages are redrawn once a minute while plans are shown.
	ages := time.NewTimer(time.Minute)
	defer ages.Stop()
	for {
		scr.pnt.SetView(v.String(time.Now()), nil)
		if v.open == "" {
			ages.Reset(time.Minute)
		}
		select {
		case u := <-updates:
			v.set(u.entries)
			v.warning = u.warning
		case k := <-keys:
			if k == allQuit {
				return nil
			}
			v.key(k)
		case <-ages.C:
		case sz := <-scr.sizes:
			v.width, v.height = sz[0], sz[1]
			scr.resize(sz)
		case err := <-errc:
			return err
		case <-ctx.Done():
			return nil
		}
	}
}

// allUpdate is what the watcher sends: the live plans, and why a source
// could not be read the last time ("" when every one was).
type allUpdate struct {
	entries []allplans.Entry
	warning string
}

// allView is the screen of `watch --all`: the boxes with one picked, or
// the picked plan opened.
type allView struct {
	st            render.Styles
	width, height int
	entries       []allplans.Entry
	warning       string // why a source was not read, under the header
	sel           int
	open          string // the path of the plan opened; "" for the boxes
}

// set takes new entries, keeping the pick on the same plan as the order
// changes.
func (v *allView) set(es []allplans.Entry) {
	picked := ""
	if v.sel < len(v.entries) {
		picked = v.entries[v.sel].Path
	}
	v.entries = es
	for i := range v.entries {
		if v.entries[i].Path == picked {
			v.sel = i
		}
	}
}

// key moves the pick, opens or closes.
func (v *allView) key(k allKey) {
	switch k {
	case allUp:
		v.sel = max(v.sel-1, 0)
	case allDown:
		v.sel = min(v.sel+1, max(len(v.entries)-1, 0))
	case allOpen:
		if v.sel < len(v.entries) {
			v.open = v.entries[v.sel].Path
		}
	case allBack:
		v.open = ""
	}
}

// String draws the view at now; the painter keeps a one-column margin (and
// no spare row on the alternate screen).
func (v *allView) String(now time.Time) string {
	width := max(v.width-1, 20)
	if v.open != "" {
		for i := range v.entries {
			if v.entries[i].Path == v.open {
				e := &v.entries[i]
				head := v.st.Dim.Render(render.Fit(render.Sanitize(e.Agent+" · "+e.Project)+" · "+age(now, e.Changed)+" · Esc back · q quits", width))
				snap := todo.Snapshot{Items: plan.Display(e.Version), Version: uint64(e.Version.N)}
				return head + "\n" + strings.TrimSuffix(render.TaskBoxIn(snap, width, max(v.height-1, 1), &v.st), "\n")
			}
		}
		v.open = "" // it dropped out
	}
	v.sel = min(v.sel, max(len(v.entries)-1, 0))
	return allBoxes(v.entries, v.warning, v.sel, width, max(v.height, 3), now, &v.st)
}

// allKey is a key of `watch --all`.
type allKey uint8

const (
	allQuit allKey = iota + 1
	allUp
	allDown
	allOpen
	allBack
)

// decodeAllKeys turns bytes from a raw terminal into keys: ↑/k, ↓/j,
// Enter, Esc/←/Backspace, q/Ctrl+C/Ctrl+D.
func decodeAllKeys(b []byte) []allKey {
	var keys []allKey
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case 'q', 'Q', 0x03, 0x04:
			keys = append(keys, allQuit)
		case 'k':
			keys = append(keys, allUp)
		case 'j':
			keys = append(keys, allDown)
		case '\r', '\n':
			keys = append(keys, allOpen)
		case 0x7f, 0x08, 'h':
			keys = append(keys, allBack)
		case 0x1b:
			if i+2 < len(b) && (b[i+1] == '[' || b[i+1] == 'O') {
				switch b[i+2] {
				case 'A':
					keys = append(keys, allUp)
				case 'B':
					keys = append(keys, allDown)
				case 'D':
					keys = append(keys, allBack)
				case 'C':
					keys = append(keys, allOpen)
				}
				i += 2
			} else {
				keys = append(keys, allBack)
			}
		}
	}
	return keys
}

// readAllKeys reads r (a terminal in raw mode) and sends each key on ch
// until r fails.
func readAllKeys(r io.Reader, ch chan<- allKey) {
	buf := make([]byte, 64)
	for {
		n, err := r.Read(buf)
		for _, k := range decodeAllKeys(buf[:n]) {
			ch <- k
		}
		if err != nil {
			return
		}
	}
}
