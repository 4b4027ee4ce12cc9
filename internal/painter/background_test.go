package painter

import "testing"

func TestDarkFromEnv(t *testing.T) {
	for in, want := range map[string]bool{"": true, "15;0": true, "0;15": false, "0;default;7": false, "12;8": true, "x": true} {
		if got := DarkFromEnv(func(string) string { return in }); got != want {
			t.Errorf("COLORFGBG=%q: dark %v, want %v", in, got, want)
		}
	}
}
