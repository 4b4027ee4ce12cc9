package offload

import (
	"bytes"
	"io"
	"os"
	"strings"
)

// tailMaxBytes is how much of the end of a file TailLines reads at most.
const tailMaxBytes = 64 << 10

// TailLines returns the last n lines of the file at path (an offloaded
// result), without their newlines, reading at most its last 64 KiB: a line
// cut by that limit is left out.
func TailLines(path string, n int) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // only read
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	off := max(fi.Size()-tailMaxBytes, 0)
	buf := make([]byte, fi.Size()-off)
	if _, err := f.ReadAt(buf, off); err != nil && err != io.EOF {
		return nil, err
	}
	buf = bytes.TrimSuffix(buf, []byte("\n"))
	lines := strings.Split(string(buf), "\n")
	if off > 0 && len(lines) > 0 {
		lines = lines[1:] // begins mid-line
	}
	if len(lines) == 1 && lines[0] == "" {
		return nil, nil
	}
	return lines[max(len(lines)-n, 0):], nil
}
