package watchui

import (
	"io"
	"os"

	"github.com/todo-shell/todo-shell/internal/painter"
)

// altScreen is the terminal a full-screen view (watch, watch --all) takes:
// raw, on the alternate screen, drawn through a painter, its new sizes sent
// on sizes (the newest only).
type altScreen struct {
	tty   *painter.Terminal
	pnt   *painter.Painter
	sizes chan [2]int
}

// openAltScreen takes the terminal out (its keys from in, when in is one)
// and starts its painter. close gives the terminal back as it was.
func openAltScreen(in io.Reader, out *os.File) (*altScreen, error) {
	f, _ := in.(*os.File)
	tty, err := painter.Open(f, out, painter.Modes{Raw: true, AltScreen: true})
	if err != nil {
		return nil, err
	}
	s := &altScreen{tty: tty, pnt: painter.New(painter.Writer(out, os.Environ()), tty.Size), sizes: make(chan [2]int, 1)}
	s.pnt.SetSpare(0) // no scrollback to keep: every row is the view's
	tty.OnResize(func(w, h int) {
		select {
		case <-s.sizes: // only the newest matters
		default:
		}
		s.sizes <- [2]int{w, h}
	})
	s.pnt.Start()
	return s, nil
}

// resize draws at the new size sz from scratch: the alternate screen has no
// scrollback to keep.
func (s *altScreen) resize(sz [2]int) {
	s.pnt.SetSize(sz[0], sz[1])
	s.pnt.Clear()
}

// close stops the painter and gives the terminal back as it was, however
// the view ended.
func (s *altScreen) close() {
	s.pnt.Stop()
	_ = s.tty.Close()
}
