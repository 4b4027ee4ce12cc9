package repl

import (
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// These tests guard what third_party/bubbletea (v1.3.10, patched) fixed,
// now done by Bubble Tea v2's own input decoder: they run a real
// tea.Program over input that arrives in the given reads, as the shell
// runs it (no renderer), and record what reaches the model.

// chunkReader returns its chunks one read each, then io.EOF.
type chunkReader struct{ chunks [][]byte }

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.chunks[0])
	c.chunks[0] = c.chunks[0][n:]
	if len(c.chunks[0]) == 0 {
		c.chunks = c.chunks[1:]
	}
	return n, nil
}

// recorder keeps the text of the keys it is sent and counts background
// colour answers, until Ctrl+D.
type recorder struct {
	keys       *strings.Builder
	background *int
}

func (r recorder) Init() tea.Cmd { return nil }

func (r recorder) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case msg.String() == "ctrl+d":
			return r, tea.Quit
		case msg.Mod == tea.ModAlt && msg.Text == "":
			r.keys.WriteString("\x1b" + string(msg.Code))
		case msg.Code == tea.KeyEnter:
			r.keys.WriteString("\r")
		default:
			r.keys.WriteString(msg.Text)
		}
	case tea.BackgroundColorMsg:
		*r.background++
	}
	return r, nil
}

func (r recorder) View() tea.View { return tea.View{} }

// decode runs a program over chunks (then Ctrl+D in a read of its own) and
// returns the keys' text and how many background answers came.
func decode(t *testing.T, chunks ...[]byte) (string, int) {
	t.Helper()
	r := recorder{keys: &strings.Builder{}, background: new(int)}
	in := &chunkReader{chunks: append(chunks, []byte{4})}
	p := tea.NewProgram(r, tea.WithInput(in), tea.WithOutput(io.Discard), tea.WithoutRenderer(),
		tea.WithoutSignals(), tea.WithWindowSize(80, 24))
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		p.Kill()
		t.Fatal("the program did not end")
	}
	return r.keys.String(), *r.background
}

// TestInputSplitInsideACharacter: text whose bytes arrive in two reads
// split at every byte offset (a terminal writes un-bracketed bulk input in
// pieces of any size) loses no character, even when the split falls inside
// a multi-byte one (trial finding on v1: 100×日本語 typed by tmux gave 299
// characters, 150×🚀 lost two).
func TestInputSplitInsideACharacter(t *testing.T) {
	for _, text := range []string{"echo '日本語'", "🚀🚀 x", "aé日🚀"} {
		b := []byte(text)
		for cut := 0; cut <= len(b); cut++ {
			got, _ := decode(t, append([]byte(nil), b[:cut]...), append([]byte(nil), b[cut:]...))
			if got != text {
				t.Errorf("%q cut at %d: read %q", text, cut, got)
			}
		}
	}
}

// TestOSCAnswerIsNotKeys: a terminal's answer to a query that arrives in
// the middle of typing (the shell's background colour query, answered
// late on a loaded machine) is an answer, never typed into the input as
// Alt+] and text (it was, on v1: `]11;rgb:…/tty cat > out.txt` ran once in
// 20 beside two busy loops); keys around it stay keys.
func TestOSCAnswerIsNotKeys(t *testing.T) {
	for _, tc := range []struct {
		name, in, keys string
		answers        int
	}{
		{"ST-ended answer", "a\x1b]11;rgb:1e1e/1e1e/1e1e\x1b\\b", "ab", 1},
		{"BEL-ended answer", "\x1b]11;rgb:0/0/0\x07/tty", "/tty", 1},
		{"answer split over two reads", "x\x1b]11;rgb:1e1e/1e|1e/1e1e\x07y", "xy", 1},
		{"an answer between two keys of a line", "echo \x1b]11;rgb:ffff/ffff/ffff\x1b\\hi\r", "echo hi\r", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var chunks [][]byte
			for _, c := range strings.Split(tc.in, "|") {
				chunks = append(chunks, []byte(c))
			}
			keys, answers := decode(t, chunks...)
			if keys != tc.keys || answers != tc.answers {
				t.Errorf("keys %q and %d background answers, want %q and %d", keys, answers, tc.keys, tc.answers)
			}
		})
	}
}
