package todo

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Limits bound what TodoWrite accepts.
type Limits struct {
	MaxItems         int // most items in one list
	MaxContentLength int // most characters (code points) in content and activeForm
	MaxInProgress    int // most items in_progress at once; 0 means no limit
}

// Environment variables that set the limits.
const (
	EnvMaxItems         = "TODO_MAX_ITEMS"
	EnvMaxContentLength = "TODO_MAX_CONTENT_LENGTH"
	EnvMaxInProgress    = "TODO_MAX_IN_PROGRESS"
)

// DefaultLimits are the limits when nothing overrides them.
func DefaultLimits() Limits {
	return Limits{MaxItems: 50, MaxContentLength: 200, MaxInProgress: 1}
}

// LimitsFromEnv reads the limits from the environment through getenv (pass
// os.Getenv), starting from DefaultLimits. A malformed value is an error that
// names the variable.
func LimitsFromEnv(getenv func(string) string) (Limits, error) {
	l := DefaultLimits()
	for _, v := range []struct {
		name string
		dst  *int
		min  int
	}{
		{EnvMaxItems, &l.MaxItems, 1},
		{EnvMaxContentLength, &l.MaxContentLength, 1},
		{EnvMaxInProgress, &l.MaxInProgress, 0},
	} {
		raw := getenv(v.name)
		if raw == "" {
			continue
		}
		n, err := ParseLimit(strings.TrimSpace(raw), v.min)
		if err != nil {
			return l, fmt.Errorf("%s=%q: %w", v.name, raw, err)
		}
		*v.dst = n
	}
	return l, nil
}

// MaxLimit is the largest value any limit takes: a million items, or
// characters, is far beyond what a model or a screen can use, and keeps every
// count well inside an int.
const MaxLimit = 1_000_000

// ParseLimit parses a limit that must be a whole number from least to
// MaxLimit.
func ParseLimit(s string, least int) (int, error) {
	n, err := strconv.Atoi(s)
	var numErr *strconv.NumError
	switch {
	case err == nil && n > MaxLimit,
		errors.As(err, &numErr) && errors.Is(numErr.Err, strconv.ErrRange) && !strings.HasPrefix(s, "-"):
		return 0, fmt.Errorf("want a whole number, at most %d", MaxLimit)
	case err != nil || n < least:
		if least == 0 {
			return 0, fmt.Errorf("want a whole number, 0 or more")
		}
		return 0, fmt.Errorf("want a whole number, %d or more", least)
	}
	return n, nil
}

// Validate reports a limit that makes no sense.
func (l Limits) Validate() error {
	switch {
	case l.MaxItems > MaxLimit || l.MaxContentLength > MaxLimit || l.MaxInProgress > MaxLimit:
		return fmt.Errorf("limits must be at most %d", MaxLimit)
	case l.MaxItems < 1:
		return fmt.Errorf("max items must be 1 or more, got %d", l.MaxItems)
	case l.MaxContentLength < 1:
		return fmt.Errorf("max content length must be 1 or more, got %d", l.MaxContentLength)
	case l.MaxInProgress < 0:
		return fmt.Errorf("max in progress must be 0 (no limit) or more, got %d", l.MaxInProgress)
	}
	return nil
}
