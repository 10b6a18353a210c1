package permissions

import (
	"slices"
	"testing"
)

// The pattern intersection errs towards "they meet": anything it does not
// model (classes, negation, multibyte characters) matches more, never less.
func TestSegsIntersect(t *testing.T) {
	bashSeg := func(p string) seg { g := patternSeg(p, false); g.dotRule = true; return g }
	for _, c := range []struct {
		a, b seg
		want bool
	}{
		{bashSeg(".en?"), literalSeg(".env"), true},
		{bashSeg("*"), literalSeg(".env"), false},
		{bashSeg("?env"), literalSeg(".env"), false},
		{bashSeg("[.]env"), literalSeg(".env"), false},
		{patternSeg("*", false), literalSeg(".env"), true},
		{bashSeg(".*"), literalSeg(".."), true},
		{bashSeg("[a-c]x"), literalSeg("bx"), true},
		{bashSeg("[a-c]x"), literalSeg("dx"), false},
		{bashSeg("[!a]x"), literalSeg("ax"), true},
		{bashSeg("[[:alpha:]]x"), literalSeg("1x"), true},
		{bashSeg("?"), literalSeg("é"), true},
		{bashSeg("a?c"), literalSeg("a中c"), true},
		{bashSeg("*.go"), patternSeg("*.env", true), false},
		{bashSeg("*.go"), patternSeg("*", true), true},
		{bashSeg("k*"), patternSeg("*y", true), true},
		{bashSeg("k*"), patternSeg("[!k]*", true), true},
		{patternSeg(`\*`, true), literalSeg("*"), true},
		{patternSeg(`\*`, true), literalSeg("a"), false},
	} {
		if got := segsIntersect(c.a, c.b); got != c.want {
			t.Errorf("segsIntersect(%v, %v) = %v", c.a, c.b, got)
		}
	}
}

func TestPathsIntersect(t *testing.T) {
	w := literalSegs("/w")
	env := append(literalSegs("/w/.env"), seg{many: true})
	if pathsIntersect(append(slices.Clone(w), seg{many: true, noDot: true}), env) {
		t.Error("a walk skipping dot files reaches .env")
	}
	if !pathsIntersect(append(slices.Clone(w), seg{many: true}), env) {
		t.Error("a walk with dot files misses .env")
	}
	if !pathsIntersect(append(literalSegs("/w/a"), seg{many: true, noDot: true}), append(literalSegs("/w"), seg{many: true}, literalSeg("b"))) {
		t.Error("w/a/** misses w/**/b")
	}
	if pathsIntersect(append(literalSegs("/w"), seg{many: true, upTo1: true}), append(literalSegs("/w/a"), anySeg(false), seg{many: true})) {
		t.Error("a listing of w reaches inside w/a")
	}
	if !pathsIntersect(append(literalSegs("/w"), seg{many: true, upTo1: true}), literalSegs("/w/a")) {
		t.Error("a listing of w misses w/a")
	}
}
