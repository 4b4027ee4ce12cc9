package cmd

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/todo-shell/todo-shell/internal/allplans"
	"github.com/todo-shell/todo-shell/internal/painter"
	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/internal/watchui"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools/todo"
)

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
	return allplans.Config{Home: home, ClaudeDir: filepath.Dir(root), CodexDir: codex, OffloadDir: off}, nil
}

// watchAll runs `watch --all`.
func watchAll(wo *WatchOptions) error {
	cfg, err := allConfig(wo)
	if err != nil {
		return err
	}
	w, err := allplans.New(cfg)
	if err != nil {
		return err
	}
	defer func() { _ = w.Close() }()
	out := wo.Streams.Out
	outF, isFile := out.(*os.File)
	if wo.Once || !isFile || !isTerminal(outF) {
		st := render.PlainStyles()
		if wo.Once {
			_, err := io.WriteString(out, allplans.Screen(w.Entries(), -1, 80, 1<<20, time.Now(), &st)+"\n")
			return err
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		bw := bufio.NewWriter(out)
		return w.Run(ctx, func(es []allplans.Entry) {
			fmt.Fprintf(bw, "%s\n\n", allplans.Screen(es, -1, 80, 1<<20, time.Now(), &st))
			_ = bw.Flush()
		})
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	updates := make(chan []allplans.Entry, 16)
	errc := make(chan error, 1)
	go func() {
		errc <- w.Run(ctx, func(es []allplans.Entry) {
			select {
			case updates <- es:
			case <-ctx.Done():
			}
		})
	}()
	in, _ := wo.Streams.In.(*os.File)
	tty, err := painter.Open(in, outF, painter.Modes{Raw: true, AltScreen: true})
	if err != nil {
		return err
	}
	defer func() { _ = tty.Close() }() // the terminal as it was, however it went
	keys := make(chan allKey, 16)
	if tty.In != nil {
		go readAllKeys(tty.In, keys)
	}
	sizes := make(chan [2]int, 1)
	tty.OnResize(func(w, h int) {
		select {
		case <-sizes: // only the newest matters
		default:
		}
		sizes <- [2]int{w, h}
	})
	st, width := watchui.Styles(out, wo.NoColor || wo.Getenv("NO_COLOR") != "")
	height := 24
	if _, h, err := tty.Size(); err == nil && h > 0 {
		height = h
	}
	pnt := painter.New(outF, tty.Size)
	pnt.Start()
	defer pnt.Stop()
	var entries []allplans.Entry
	sel, open := 0, ""
	// Ages are redrawn once a minute while plans are shown.
	ages := time.NewTimer(time.Minute)
	defer ages.Stop()
	draw := func() {
		now := time.Now()
		if open != "" {
			for i := range entries {
				if entries[i].Path == open {
					e := &entries[i]
					head := st.Dim.Render(render.Sanitize(e.Agent+" · "+e.Project) + " · " + allplans.Age(now, e.Changed) + " · Esc back · q quits")
					pnt.SetView(head + "\n" + strings.TrimSuffix(render.TaskBoxIn(todo.Snapshot{Items: plan.Display(e.Version), Version: uint64(e.Version.N)}, max(width-1, 20), max(height-3, 3), &st), "\n"))
					return
				}
			}
			open = "" // it dropped out
		}
		sel = min(sel, max(len(entries)-1, 0))
		// The painter keeps a one-column margin and two spare rows.
		pnt.SetView(allplans.Screen(entries, sel, max(width-1, 20), max(height-2, 3), now, &st))
		ages.Reset(time.Minute)
	}
	draw()
	for {
		select {
		case es := <-updates:
			// Keep the pick on the same plan as the order changes.
			picked := ""
			if sel < len(entries) {
				picked = entries[sel].Path
			}
			entries = es
			for i := range entries {
				if entries[i].Path == picked {
					sel = i
				}
			}
			draw()
		case k := <-keys:
			switch k {
			case allQuit:
				return nil
			case allUp:
				sel = max(sel-1, 0)
			case allDown:
				sel = min(sel+1, max(len(entries)-1, 0))
			case allOpen:
				if sel < len(entries) {
					open = entries[sel].Path
				}
			case allBack:
				open = ""
			}
			draw()
		case <-ages.C:
			draw()
		case sz := <-sizes:
			width, height = sz[0], sz[1]
			pnt.SetSize(width, height)
			pnt.Clear() // the alternate screen has no scrollback to keep
			draw()
		case err := <-errc:
			return err
		case <-ctx.Done():
			return nil
		}
	}
}
