package painter

import (
	"strconv"
	"strings"
)

// DarkFromEnv guesses the background from COLORFGBG ("fg;bg", set by rxvt,
// Konsole and others) without asking the terminal: bright white or white
// behind the text is light, anything else or nothing is dark.
func DarkFromEnv(getenv func(string) string) bool {
	v := getenv("COLORFGBG")
	if v == "" {
		return true
	}
	parts := strings.Split(v, ";")
	bg, err := strconv.Atoi(parts[len(parts)-1])
	if err != nil {
		return true
	}
	return bg != 7 && bg != 15
}
