package persistence

import "testing"

func TestThreshold(t *testing.T) {
	tests := []struct {
		name        string
		declared    int
		override    int
		hasOverride bool
		want        int
	}{
		{"Read is exempt", Unlimited, 0, false, Unlimited},
		{"Read stays exempt under an override", Unlimited, 10, true, Unlimited},
		{"Bash under the cap", 30_000, 0, false, 30_000},
		{"Grep under the cap", 20_000, 0, false, 20_000},
		{"others capped", 100_000, 0, false, DefaultMaxResultSizeChars},
		{"override lowers", 30_000, 1_000, true, 1_000},
		{"override raises past the cap", 100_000, 80_000, true, 80_000},
		{"zero override ignored", 30_000, 0, true, 30_000},
		{"negative override ignored", 30_000, -1, true, 30_000},
		{"infinite override ignored", 100_000, Unlimited, true, DefaultMaxResultSizeChars},
		{"override without flag ignored", 30_000, 5, false, 30_000},
		{"undeclared gets the cap", 0, 0, false, DefaultMaxResultSizeChars},
	}
	for _, tt := range tests {
		if got := Threshold(tt.declared, tt.override, tt.hasOverride); got != tt.want {
			t.Errorf("%s: Threshold(%d, %d, %v) = %d, want %d", tt.name, tt.declared, tt.override, tt.hasOverride, got, tt.want)
		}
	}
}

func TestIsUnlimited(t *testing.T) {
	for v, want := range map[int]bool{Unlimited: true, 0: true, -1: true, 1: false, 50_000: false} {
		if IsUnlimited(v) != want {
			t.Errorf("IsUnlimited(%d) = %v", v, !want)
		}
	}
}
