package offload

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Error tells what became of a result that could not be offloaded to its
// usual place: where it went instead, or how much of it was kept. Every byte
// of the output is either delivered or counted in Dropped.
type Error struct {
	Failures []error // why each place failed, in the order tried
	File     string  // where the output went instead; "" when it is not in a file
	Off      bool    // offloading is off (no failure: the output is too big to keep)
	Total    int64   // bytes of output
	Dropped  int64   // bytes dropped from the middle of the output
	Head     int64   // bytes kept from the start, when Dropped > 0
	Tail     int64   // bytes kept from the end, when Dropped > 0
	// Capped is the cap of an offload file (Config.MaxFile) when the
	// output passed it: the file holds Head bytes, the line marking the
	// cut and Tail bytes; Dropped bytes (DroppedLines of its Lines lines)
	// were cut. Failures, when set, say why the file is File instead.
	Capped       int64
	Lines        int64
	DroppedLines int64
}

// Error says it all in one line.
func (e *Error) Error() string {
	if e.Capped > 0 {
		return e.cut()
	}
	var b strings.Builder
	if e.Off {
		b.WriteString("offloading is off")
	} else {
		b.WriteString("could not write the offload file")
		for i, f := range e.Failures {
			if i > 0 {
				b.WriteString(" nor")
			}
			b.WriteString(" " + f.Error())
		}
	}
	switch {
	case e.File != "":
		b.WriteString("; the output is in " + e.File + " instead")
	case e.Dropped > 0:
		fmt.Fprintf(&b, "; kept the first %d and the last %d of %d bytes, dropped the %d bytes between them",
			e.Head, e.Tail, e.Total, e.Dropped)
	default:
		b.WriteString("; the output is shown in full")
	}
	return b.String()
}

// cut is Error for an output cut by the cap.
func (e *Error) cut() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the output (%s, %d lines) passed the %s an offload file holds (--offload-max-mib): %s (%d lines) cut from its middle, the file keeps the first %s and the last %s",
		Size(e.Total), e.Lines, Size(e.Capped), Size(e.Dropped), e.DroppedLines, Size(e.Head), Size(e.Tail))
	if e.File != "" && len(e.Failures) > 0 {
		b.WriteString("; it is in " + e.File + ": could not write")
		for i, f := range e.Failures {
			if i > 0 {
				b.WriteString(" nor")
			}
			b.WriteString(" " + f.Error())
		}
	}
	return b.String()
}

// Size is n bytes for a person: "512 B", "3.5 KiB", "64 MiB", "1.2 GiB".
func Size(n int64) string {
	const unit = 1024
	if n < unit {
		return strconv.FormatInt(n, 10) + " B"
	}
	v, suffix := float64(n)/unit, "KiB"
	for _, s := range []string{"MiB", "GiB", "TiB"} {
		if v < unit {
			break
		}
		v, suffix = v/unit, s
	}
	text := strconv.FormatFloat(v, 'f', 1, 64)
	return strings.TrimSuffix(text, ".0") + " " + suffix
}

// Unwrap returns the failures.
func (e *Error) Unwrap() []error { return e.Failures }

// Marker is the line put in place of the dropped middle of an output.
func (e *Error) Marker() string {
	if e.Capped > 0 {
		return "\n[todo-shell: " + strconv.FormatInt(e.Dropped, 10) + " bytes (" + strconv.FormatInt(e.DroppedLines, 10) +
			" lines) of output cut here: the output passed the " + Size(e.Capped) +
			" an offload file holds (--offload-max-mib); kept the first " + strconv.FormatInt(e.Head, 10) +
			" and the last " + strconv.FormatInt(e.Tail, 10) + " of " + strconv.FormatInt(e.Total, 10) + " bytes]\n"
	}
	why := "offloading is off"
	if !e.Off {
		parts := make([]string, len(e.Failures))
		for i, f := range e.Failures {
			parts[i] = f.Error()
		}
		why = "could not write the offload file " + strings.Join(parts, " nor ")
	}
	return "\n[todo-shell: " + strconv.FormatInt(e.Dropped, 10) + " bytes of output dropped here (kept the first " +
		strconv.FormatInt(e.Head, 10) + " and the last " + strconv.FormatInt(e.Tail, 10) + " of " +
		strconv.FormatInt(e.Total, 10) + " bytes): " + why + "]\n"
}

// Warning returns the line that tells a person why a result was not
// offloaded as usual.
func Warning(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return "Warning: " + e.Error()
	}
	return "Warning: could not offload the result, showing it in full: " + err.Error()
}

// failure describes one place that failed.
func failure(path, step string, err error) error {
	return &stepError{path: path, step: step, err: err}
}

type stepError struct {
	path, step string
	err        error
}

func (e *stepError) Error() string {
	msg := e.err.Error()
	// The path is said once: drop it from the cause when it repeats it.
	var pe *os.PathError
	if errors.As(e.err, &pe) {
		msg = pe.Err.Error()
	}
	return e.path + " (" + e.step + ": " + msg + ")"
}

func (e *stepError) Unwrap() error { return e.err }

// DefaultFallbackDir is the second place offload files go when the offload
// directory cannot be written: $TMPDIR/todo-shell-<uid>.
func DefaultFallbackDir() string {
	return filepath.Join(os.TempDir(), "todo-shell-"+strconv.Itoa(os.Getuid()))
}
