package store

import (
	"context"
	"database/sql"
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

// BenchmarkBoard reads the boards a big bot's players ask for most, on
// each backend: 2000 players in 20 servers, each solving about two in
// three of 90 days' easy dailies (about 120,000 results): the global
// all-time board (from the totals), the same read from every result, a
// server's week, and the global week, each with the asker's own line.
//
//	go test ./store -run '^$' -bench Board -benchtime 20x -count 6
func BenchmarkBoard(b *testing.B) {
	const players, days, servers = 2000, 90, 20
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			be.require(b)
			s := mustOpen(b, be.open(b))()
			ctx := context.Background()
			g, _, err := s.StartGame(ctx, testGame("seed"))
			if err != nil {
				b.Fatal(err)
			}
			c := coreOf(s)
			if err := c.write(ctx, "fill results", func(tx *sql.Tx) error {
				for p := range players {
					for d := range days {
						if (p*7+d*13)%3 == 0 {
							continue
						}
						if _, err := tx.ExecContext(ctx, `INSERT INTO daily_results (user_id, daily_date, level, user_name, guild_id,
							game_id, duration_ms, hints, checks, finished_at) VALUES ($1, $2, 'easy', $3, $4, $5, $6, 0, 0, $7)`,
							fmt.Sprint("u", p), day(day0.AddDate(0, 0, d)), fmt.Sprint("name", p), fmt.Sprint("g", p%servers),
							g.ID, 60000+(p*7919+d*104729)%600000, ms(day0.AddDate(0, 0, d))); err != nil {
							return err
						}
					}
				}
				// As the finishing transactions keep them (addTotals).
				_, err := tx.ExecContext(ctx, `INSERT INTO board_totals (user_id, guild_id, level, solves, total_ms, best_ms, hints, last_finished)
					SELECT user_id, guild_id, level, COUNT(*), SUM(duration_ms), MIN(duration_ms), SUM(hints), MAX(finished_at)
					FROM daily_results WHERE flag = '' GROUP BY user_id, guild_id, level`)
				return err
			}); err != nil {
				b.Fatal(err)
			}
			last := day0.AddDate(0, 0, days-1)
			for _, q := range []struct {
				name string
				q    BoardQuery
			}{
				{"global-all", BoardQuery{Level: "easy", MinSolves: 20, Limit: 10, Include: "u1234"}},
				{"global-90-days", BoardQuery{From: day0, To: last, Level: "easy", MinSolves: 20, Limit: 10, Include: "u1234"}},
				{"server-week", BoardQuery{GuildID: "g14", From: last.AddDate(0, 0, -6), To: last, Level: "easy", MinSolves: 3, Limit: 10, Include: "u1234"}},
				{"global-week", BoardQuery{From: last.AddDate(0, 0, -6), To: last, Level: "easy", MinSolves: 3, Limit: 10, Include: "u1234"}},
			} {
				b.Run(q.name, func(b *testing.B) {
					for range b.N {
						rows, err := s.Board(ctx, q.q)
						if err != nil || len(rows) != 11 {
							b.Fatalf("Board = %d rows, %v; want 10 and the asker's", len(rows), err)
						}
					}
				})
			}
		})
	}
}
