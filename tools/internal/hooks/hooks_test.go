package hooks

import (
	"slices"
	"sync"
	"testing"
)

func TestList(t *testing.T) {
	tests := []struct {
		name   string
		remove []int // indexes of the hooks removed, in order (one may repeat)
		want   []string
	}{
		{name: "none removed", want: []string{"a", "b", "c"}},
		{name: "middle removed", remove: []int{1}, want: []string{"a", "c"}},
		{name: "first and last removed", remove: []int{0, 2}, want: []string{"b"}},
		{name: "removed twice", remove: []int{1, 1}, want: []string{"a", "c"}},
		{name: "all removed", remove: []int{2, 0, 1}, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var l List[func() string]
			var removes []func()
			for _, s := range []string{"a", "b", "c"} {
				removes = append(removes, l.Add(&mu, func() string { return s }))
			}
			for _, i := range tt.remove {
				removes[i]()
			}
			var got []string
			for fn := range l.All() {
				got = append(got, fn())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("called %q, want %q", got, tt.want)
			}
		})
	}
}

func TestListStopsWhenAsked(t *testing.T) {
	var mu sync.Mutex
	var l List[func() int]
	for i := range 3 {
		l.Add(&mu, func() int { return i })
	}
	var got []int
	for fn := range l.All() {
		got = append(got, fn())
		if len(got) == 2 {
			break
		}
	}
	if !slices.Equal(got, []int{0, 1}) {
		t.Errorf("got %v, want [0 1]", got)
	}
}
