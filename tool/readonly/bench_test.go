package readonly

import "testing"

func BenchmarkIsReadOnlyBash(b *testing.B) {
	commands := []string{
		"ls -la",
		"git status --porcelain && git --no-pager log --oneline -n 20",
		"grep -rn 'func ' --include='*.go' . | sort | uniq -c | head -50",
		"find . -name '*.go' -print0 | xargs -0 wc -l 2>/dev/null",
		"for f in $(git ls-files); do sed -n '1,5p' \"$f\"; done",
		"echo done > out.txt",
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range commands {
			IsReadOnly(c)
		}
	}
}
