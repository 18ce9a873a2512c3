package commands

import (
	"context"
	"testing"
)

func benchHandle(b *testing.B, req Request) {
	s := New(Config{})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		r := s.Handle(ctx, req)
		if len(r.Embeds) == 0 && r.Content == "" {
			b.Fatal("empty reply")
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "replies/s")
}

func BenchmarkSolveText(b *testing.B) {
	benchHandle(b, slash("solve", "puzzle", uniquePuzzle, "output", "text"))
}

func BenchmarkSolveImage(b *testing.B) {
	benchHandle(b, slash("solve", "puzzle", uniquePuzzle))
}

func BenchmarkCheck(b *testing.B) {
	benchHandle(b, slash("check", "puzzle", uniquePuzzle))
}
