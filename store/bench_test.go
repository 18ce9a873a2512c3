package store

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"
)

// BenchmarkStore times the store's three busiest writes on each backend
// (PostgreSQL when DATABASE_URL_TEST is set): a move applied to one of 100
// games in progress, a game started, and the winning move of a daily,
// which finishes the game and records its result in one transaction. It
// also reports the process's CPU time per write, steadier than wall time
// on a busy machine.
//
//	go test ./store -run '^$' -bench Store -benchtime 300x -count 6
func BenchmarkStore(b *testing.B) {
	ops := []struct {
		name string
		// setup prepares s for b.N writes and returns the i-th write.
		setup func(b *testing.B, s backend) func(i int) error
	}{
		{"move", setupMove},
		{"start", setupStart},
		{"daily", setupDailyResult},
	}
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			be.require(b)
			for _, op := range ops {
				b.Run(op.name, func(b *testing.B) {
					write := op.setup(b, mustOpen(b, be.open(b))())
					b.ResetTimer()
					cpu := cpuTime()
					for i := range b.N {
						if err := write(i); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/1e3/float64(b.N), "cpu-µs/op")
				})
			}
		})
	}
}

// cpuTime is the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func setupMove(b *testing.B, s backend) func(int) error {
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
	return func(i int) error {
		_, err := s.Move(ctx, ids[i%len(ids)], []Change{{Cell: 1 + i%79, Value: uint8(i%9 + 1)}}, win, t0, nil)
		return err
	}
}

func setupStart(b *testing.B, s backend) func(int) error {
	ctx := context.Background()
	return func(i int) error {
		_, _, err := s.StartGame(ctx, testGame(fmt.Sprint("u", i%100)))
		return err
	}
}

func setupDailyResult(b *testing.B, s backend) func(int) error {
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
	return func(i int) error {
		f, err := s.Move(ctx, ids[i], []Change{{Cell: 0, Value: 5}}, win, t0.Add(time.Minute), nil)
		if err == nil && f.Result == nil {
			err = fmt.Errorf("winning move = %+v; want a result recorded", f)
		}
		return err
	}
}
