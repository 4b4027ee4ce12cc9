package plan

import (
	"slices"
	"strings"
	"unicode"

	"github.com/todo-shell/todo-shell/tools/todo"
)

// Rename is an item whose text changed between two versions.
type Rename struct {
	From, To string
	// ID is the task's id, for a task list ("" otherwise).
	ID string
}

// String is the rename as replay prints it: "#4: Mine → Yours" for a task
// (the id said once, not on both sides), else "From → To".
func (r Rename) String() string {
	if r.ID != "" {
		pre := "#" + r.ID + " "
		return "#" + r.ID + ": " + strings.TrimPrefix(r.From, pre) + " → " + strings.TrimPrefix(r.To, pre)
	}
	return r.From + " → " + r.To
}

// Thresholds of the word matching: two items of different text are the
// same item reworded when the Dice coefficient of their word sets, plus
// samePlace when they stand at the same index, reaches renameScore.
// ("Write tests" → "Write unit tests": 2·2/(2+3) = 0.8.)
const (
	renameScore = 0.6
	samePlace   = 0.1
)

// match pairs the items of cur with those of prev: by key where both
// versions have keys (the format's ids); otherwise by equal text, then the
// rest by the similarity of their words and their position. It returns,
// for each item of cur, the index of its item in prev or -1.
func match(prev, cur []todo.Item, pk, ck []string) []int {
	of := make([]int, len(cur))
	for i := range of {
		of[i] = -1
	}
	used := make([]bool, len(prev))
	if pk != nil && ck != nil {
		matchKeys(of, used, pk, ck)
		return of
	}
	matchEqualText(of, used, prev, cur)
	matchSimilar(of, used, prev, cur)
	return of
}

// matchKeys pairs the items of cur with those of prev that have the same
// key, setting of and used.
func matchKeys(of []int, used []bool, pk, ck []string) {
	at := make(map[string]int, len(pk))
	for i, k := range pk {
		if _, dup := at[k]; !dup {
			at[k] = i
		}
	}
	for i, k := range ck {
		if j, ok := at[k]; ok && !used[j] {
			of[i], used[j] = j, true
		}
	}
}

// matchEqualText pairs the items of cur with those of prev of equal text,
// in order (a repeated text pairs first with first).
func matchEqualText(of []int, used []bool, prev, cur []todo.Item) {
	at := make(map[string][]int, len(prev))
	for j, it := range prev {
		at[it.Content] = append(at[it.Content], j)
	}
	for i, it := range cur {
		if js := at[it.Content]; len(js) > 0 {
			of[i], used[js[0]] = js[0], true
			at[it.Content] = js[1:]
		}
	}
}

// matchSimilar pairs the items of cur and prev still unpaired by the
// similarity of their words and their position, best pair first.
func matchSimilar(of []int, used []bool, prev, cur []todo.Item) {
	type pair struct {
		i, j  int
		score float64
	}
	var pairs []pair
	prevWords := make([][]string, len(prev))
	for j := range prev {
		if !used[j] {
			prevWords[j] = wordSet(prev[j].Content)
		}
	}
	for i := range cur {
		if of[i] >= 0 {
			continue
		}
		w := wordSet(cur[i].Content)
		for j := range prev {
			if used[j] {
				continue
			}
			s := dice(w, prevWords[j])
			if i == j {
				s += samePlace
			}
			if s >= renameScore {
				pairs = append(pairs, pair{i, j, s})
			}
		}
	}
	slices.SortStableFunc(pairs, func(a, b pair) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	for _, p := range pairs {
		if of[p.i] < 0 && !used[p.j] {
			of[p.i], used[p.j] = p.j, true
		}
	}
}

// wordSet returns the distinct lower-case words of s, sorted.
func wordSet(s string) []string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
	slices.Sort(f)
	return slices.Compact(f)
}

// dice is the Dice coefficient of two sorted word sets.
func dice(a, b []string) float64 {
	if len(a)+len(b) == 0 {
		return 0
	}
	common := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			common++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return 2 * float64(common) / float64(len(a)+len(b))
}
