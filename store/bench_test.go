package store

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// BenchmarkStore times the store's three busiest writes on each backend
// (PostgreSQL when DATABASE_URL_TEST is set): a move applied to one of 100
// games in progress, a game started, and the winning move of a daily,
// which finishes the game and records its result in one transaction.
//
//	go test ./store -run '^$' -bench Store -benchtime 300x -count 6
func BenchmarkStore(b *testing.B) {
	backends := []struct {
		name string
		open opener
	}{
		{"sqlite", openSQLite},
		{"postgres", openPostgresTest},
	}
	ops := []struct {
		name string
		run  func(b *testing.B, s backend)
	}{
		{"move", benchMove},
		{"start", benchStart},
		{"daily", benchDailyResult},
	}
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			if be.name == "postgres" {
				requirePostgres(b)
			}
			for _, op := range ops {
				b.Run(op.name, func(b *testing.B) { op.run(b, be.open(b)()) })
			}
		})
	}
}

func benchMove(b *testing.B, s backend) {
	ctx := context.Background()
	ids := make([]int64, 100)
	for i := range ids {
		g, _, err := s.StartGame(ctx, testGame(fmt.Sprint("u", i)))
		if err != nil {
			b.Fatal(err)
		}
		ids[i] = g.ID
	}
	win := winOn(81)
	win[80] = 9 // never reached: every move is an ordinary one
	b.ResetTimer()
	for i := range b.N {
		if _, err := s.Move(ctx, ids[i%len(ids)], []Change{{Cell: 1 + i%79, Value: uint8(i%9 + 1)}}, win, t0); err != nil {
			b.Fatal(err)
		}
	}
}

func benchStart(b *testing.B, s backend) {
	ctx := context.Background()
	for i := range b.N {
		if _, _, err := s.StartGame(ctx, testGame(fmt.Sprint("u", i%100))); err != nil {
			b.Fatal(err)
		}
	}
}

func benchDailyResult(b *testing.B, s backend) {
	ctx := context.Background()
	day := time.Date(2025, 3, 14, 0, 0, 0, 0, time.UTC)
	ids := make([]int64, b.N)
	for i := range ids {
		g, _, err := s.StartGame(ctx, testDaily(fmt.Sprint("u", i), "g1", day, "easy"))
		if err != nil {
			b.Fatal(err)
		}
		ids[i] = g.ID
	}
	win := winOn(81)
	b.ResetTimer()
	for i := range b.N {
		f, err := s.Move(ctx, ids[i], []Change{{Cell: 0, Value: 5}}, win, t0.Add(time.Minute))
		if err != nil || f.Result == nil {
			b.Fatalf("winning move = %+v, %v; want a result recorded", f, err)
		}
	}
}
