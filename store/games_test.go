package store

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const testPuzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"

func testGame(user string) NewGame {
	return NewGame{UserID: user, UserName: "name-" + user, GuildID: "g1", ChannelID: "c1",
		Puzzle: testPuzzle, Shape: "3x3", Level: "hard", Cells: 81, Now: t0}
}

func testDaily(user, guild string, date time.Time, level string) NewGame {
	ng := testGame(user)
	ng.GuildID, ng.DailyDate, ng.DailyLevel, ng.Level = guild, date, level, level
	return ng
}

func mustStart(t *testing.T, s backend, ng NewGame) Game {
	t.Helper()
	g, _, err := s.StartGame(context.Background(), ng)
	if err != nil {
		t.Fatalf("StartGame(%+v): %v", ng, err)
	}
	return g
}

func testStartGame(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	ng := testGame("ada")
	ng.Score = 7.2
	g, created, err := s.StartGame(ctx, ng)
	if err != nil || !created {
		t.Fatalf("StartGame = %v, created %v", err, created)
	}
	got, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.UserID != "ada" || got.UserName != "name-ada" || got.GuildID != "g1" || got.ChannelID != "c1" ||
		got.Puzzle != testPuzzle || got.Shape != "3x3" || got.Level != "hard" || got.Status != Playing ||
		!got.StartedAt.Equal(t0) || !got.ViewedAt.IsZero() || got.IsDaily() || got.Score != 7.2 {
		t.Errorf("Game(%d) = %+v, want the game just started", g.ID, got)
	}
	if len(got.Entries) != 81 || len(got.Pencil) != 81 {
		t.Errorf("board has %d entries and %d pencil cells, want 81 each", len(got.Entries), len(got.Pencil))
	}
	g2 := mustStart(t, s, testGame("ada"))
	if g2.ID == g.ID {
		t.Error("a second personal game reused the first game's id")
	}
}

func testStartGameRejects(t *testing.T, s backend, second func() backend) {
	tests := []struct {
		name string
		edit func(*NewGame)
	}{
		{"no user", func(n *NewGame) { n.UserID = "" }},
		{"no puzzle", func(n *NewGame) { n.Puzzle = "" }},
		{"no shape", func(n *NewGame) { n.Shape = "" }},
		{"no cells", func(n *NewGame) { n.Cells = 0 }},
		{"too many cells", func(n *NewGame) { n.Cells = 626 }},
		{"daily without date", func(n *NewGame) { n.DailyLevel = "easy" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ng := testGame("u")
			tt.edit(&ng)
			if _, _, err := s.StartGame(context.Background(), ng); !errors.Is(err, ErrInvalid) {
				t.Errorf("StartGame(%+v) = %v, want ErrInvalid", ng, err)
			}
		})
	}
}

func testDailyGameResumes(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	day1 := time.Date(2025, 3, 14, 0, 0, 0, 0, time.UTC)
	g, created, err := s.StartGame(ctx, testDaily("ada", "g1", day1.Add(15*time.Hour), "easy"))
	if err != nil || !created {
		t.Fatalf("first daily StartGame = %v, created %v", err, created)
	}
	if !g.DailyDate.Equal(day1) || g.DailyLevel != "easy" || !g.IsDaily() {
		t.Errorf("daily game date %v level %q, want %v easy", g.DailyDate, g.DailyLevel, day1)
	}
	again, created, err := s.StartGame(ctx, testDaily("ada", "g2", day1.Add(20*time.Hour), "easy"))
	if err != nil || created || again.ID != g.ID {
		t.Errorf("second daily StartGame = id %d, created %v, %v; want id %d resumed", again.ID, created, err, g.ID)
	}
	other := mustStart(t, s, testDaily("ada", "g1", day1, "hard"))
	next := mustStart(t, s, testDaily("ada", "g1", day1.AddDate(0, 0, 1), "easy"))
	bob := mustStart(t, s, testDaily("bob", "g1", day1, "easy"))
	if ids := map[int64]bool{g.ID: true, other.ID: true, next.ID: true, bob.ID: true}; len(ids) != 4 {
		t.Errorf("other level, day and user should be new games, got ids %v", ids)
	}
	found, err := s.DailyGame(ctx, "ada", day1.Add(23*time.Hour), "easy")
	if err != nil || found.ID != g.ID {
		t.Errorf("DailyGame = %d, %v; want %d", found.ID, err, g.ID)
	}
	if _, err := s.DailyGame(ctx, "ada", day1.AddDate(0, 0, 5), "easy"); !errors.Is(err, ErrNotFound) {
		t.Errorf("DailyGame of an unplayed day = %v, want ErrNotFound", err)
	}
}

func testConcurrentDailyStartsMakeOneGame(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	var wg sync.WaitGroup
	var createdN atomic.Int32
	ids := make([]int64, 8)
	for i := range ids {
		wg.Go(func() {
			g, created, err := s.StartGame(ctx, testDaily("ada", "g1", t0, "medium"))
			if err != nil {
				t.Errorf("StartGame: %v", err)
				return
			}
			if created {
				createdN.Add(1)
			}
			ids[i] = g.ID
		})
	}
	wg.Wait()
	if createdN.Load() != 1 {
		t.Errorf("%d calls created the daily game, want 1", createdN.Load())
	}
	for _, id := range ids {
		if id != ids[0] {
			t.Errorf("StartGame ids %v, want all the same", ids)
			break
		}
	}
}

func testGameNotFound(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	if _, err := s.Game(ctx, 42); !errors.Is(err, ErrNotFound) {
		t.Errorf("Game(42) = %v, want ErrNotFound", err)
	}
	if _, err := s.ApplyMoves(ctx, 42, []Change{{Cell: 1, Value: 1}}); !errors.Is(err, ErrNotFound) {
		t.Errorf("ApplyMoves(42) = %v, want ErrNotFound", err)
	}
	if _, err := s.Finish(ctx, 42, Solved, t0); !errors.Is(err, ErrNotFound) {
		t.Errorf("Finish(42) = %v, want ErrNotFound", err)
	}
}

func testMarkViewedKeepsFirst(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	g := mustStart(t, s, testGame("ada"))
	first := t0.Add(3 * time.Second)
	if g, err := s.MarkViewed(ctx, g.ID, first); err != nil || !g.ViewedAt.Equal(first) {
		t.Fatalf("MarkViewed = %v, %v; want viewed at %v", g.ViewedAt, err, first)
	}
	if g, err := s.MarkViewed(ctx, g.ID, first.Add(time.Hour)); err != nil || !g.ViewedAt.Equal(first) {
		t.Errorf("second MarkViewed = %v, %v; want the first time %v kept", g.ViewedAt, err, first)
	}
	g, _ = s.Game(ctx, g.ID)
	if got := g.Elapsed(first.Add(90 * time.Second)); got != 90*time.Second {
		t.Errorf("Elapsed = %v, want 1m30s from the first view", got)
	}
}

func TestElapsed(t *testing.T) {
	tests := []struct {
		name string
		g    Game
		now  time.Time
		want time.Duration
	}{
		{"from start when never viewed", Game{StartedAt: t0}, t0.Add(time.Minute), time.Minute},
		{"from first view", Game{StartedAt: t0, ViewedAt: t0.Add(time.Minute)}, t0.Add(3 * time.Minute), 2 * time.Minute},
		{"stops at the finish", Game{StartedAt: t0, FinishedAt: t0.Add(time.Minute)}, t0.Add(time.Hour), time.Minute},
		{"never negative", Game{StartedAt: t0}, t0.Add(-time.Minute), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.g.Elapsed(tt.now); got != tt.want {
				t.Errorf("Elapsed(%v) = %v, want %v", tt.now, got, tt.want)
			}
		})
	}
}

func testApplyMovesAndUndo(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	g := mustStart(t, s, testGame("ada"))

	g, err := s.ApplyMoves(ctx, g.ID, []Change{{Cell: 1, Value: 5}, {Cell: 2, Pencil: 1<<0 | 1<<1 | 1<<2}})
	if err != nil {
		t.Fatalf("ApplyMoves: %v", err)
	}
	if g.Entries[1] != 5 || g.Pencil[2] != 0b111 || g.Moves != 1 {
		t.Errorf("after move 1: cell1=%d pencil2=%b moves=%d, want 5, 111, 1", g.Entries[1], g.Pencil[2], g.Moves)
	}
	if _, err := s.RecordHint(ctx, g.ID, 2); err != nil {
		t.Fatal(err)
	}
	// Cell 1 twice in one batch: the last value wins, and undo restores the
	// value before the batch.
	g, err = s.ApplyMoves(ctx, g.ID, []Change{{Cell: 1, Value: 7}, {Cell: 1, Value: 8}, {Cell: 2, Value: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if g.Entries[1] != 8 || g.Entries[2] != 3 || g.Pencil[2] != 0 || g.Moves != 2 || g.HintStage != 0 {
		t.Errorf("after move 2: %d %d %b moves=%d stage=%d, want 8 3 0 2 0", g.Entries[1], g.Entries[2], g.Pencil[2], g.Moves, g.HintStage)
	}
	// A batch that changes nothing is not a move.
	g, err = s.ApplyMoves(ctx, g.ID, []Change{{Cell: 1, Value: 8}})
	if err != nil || g.Moves != 2 {
		t.Errorf("no-op ApplyMoves: moves=%d, %v; want 2", g.Moves, err)
	}
	if n, _ := s.MoveCount(ctx, g.ID); n != 2 {
		t.Errorf("MoveCount = %d, want 2", n)
	}

	g, err = s.Undo(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if g.Entries[1] != 5 || g.Entries[2] != 0 || g.Pencil[2] != 0b111 || g.Moves != 1 {
		t.Errorf("after undo 1: %d %d %b moves=%d, want 5 0 111 1", g.Entries[1], g.Entries[2], g.Pencil[2], g.Moves)
	}
	g, err = s.Undo(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i := range g.Entries {
		if g.Entries[i] != 0 || g.Pencil[i] != 0 {
			t.Fatalf("after undoing everything cell %d = %d/%b, want empty", i, g.Entries[i], g.Pencil[i])
		}
	}
	if _, err := s.Undo(ctx, g.ID); !errors.Is(err, ErrNothingToUndo) {
		t.Errorf("Undo with no moves = %v, want ErrNothingToUndo", err)
	}
	// Stored, not just returned.
	stored, _ := s.Game(ctx, g.ID)
	if stored.Moves != 0 || stored.Entries[1] != 0 {
		t.Errorf("stored game after undo: moves %d cell1 %d", stored.Moves, stored.Entries[1])
	}
}

func testApplyMovesRejectsWholeBatch(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	g := mustStart(t, s, testGame("ada"))
	tests := []struct {
		name   string
		change Change
	}{
		{"negative cell", Change{Cell: -1, Value: 1}},
		{"cell off board", Change{Cell: 81, Value: 1}},
		{"value over N", Change{Cell: 0, Value: 10}},
		{"pencil over N", Change{Cell: 0, Pencil: 1 << 9}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.ApplyMoves(ctx, g.ID, []Change{{Cell: 5, Value: 4}, tt.change})
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("ApplyMoves(%+v) = %v, want ErrInvalid", tt.change, err)
			}
			got, _ := s.Game(ctx, g.ID)
			if got.Entries[5] != 0 || got.Moves != 0 {
				t.Errorf("a rejected batch was partly applied: cell 5 = %d, moves %d", got.Entries[5], got.Moves)
			}
		})
	}
}

func testHintsAndChecksCount(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	g := mustStart(t, s, testGame("ada"))
	for stage := 1; stage <= 3; stage++ {
		var err error
		if g, err = s.RecordHint(ctx, g.ID, stage); err != nil {
			t.Fatal(err)
		}
	}
	for range 2 {
		var err error
		if g, err = s.RecordCheck(ctx, g.ID); err != nil {
			t.Fatal(err)
		}
	}
	if g.Hints != 3 || g.HintStage != 3 || g.Checks != 2 {
		t.Errorf("hints %d stage %d checks %d, want 3 3 2", g.Hints, g.HintStage, g.Checks)
	}
}

func testFinish(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	g := mustStart(t, s, testGame("ada"))
	if _, err := s.Finish(ctx, g.ID, Playing, t0); !errors.Is(err, ErrInvalid) {
		t.Errorf("Finish(..., Playing) = %v, want ErrInvalid", err)
	}
	if _, err := s.ApplyMoves(ctx, g.ID, []Change{{Cell: 3, Value: 2}}); err != nil {
		t.Fatal(err)
	}
	end := t0.Add(5 * time.Minute)
	f, err := s.Finish(ctx, g.ID, GaveUp, end)
	if err != nil || !f.Now || f.Result != nil || f.Game.Status != GaveUp || !f.Game.FinishedAt.Equal(end) {
		t.Fatalf("Finish(GaveUp) = %+v, %v", f, err)
	}
	if n, _ := s.MoveCount(ctx, g.ID); n != 0 || f.Game.Moves != 1 || f.Game.Entries[3] != 2 {
		t.Errorf("after Finish: %d moves in the undo log, Moves %d, cell 3 = %d; want 0, 1, 2", n, f.Game.Moves, f.Game.Entries[3])
	}
	again, err := s.Finish(ctx, g.ID, Solved, end.Add(time.Minute))
	if err != nil || again.Now || again.Game.Status != GaveUp {
		t.Errorf("Finish after give up = now %v status %q, %v; want nothing changed", again.Now, again.Game.Status, err)
	}
	for name, call := range map[string]func() error{
		"ApplyMoves":  func() error { _, err := s.ApplyMoves(ctx, g.ID, []Change{{Cell: 0, Value: 1}}); return err },
		"Undo":        func() error { _, err := s.Undo(ctx, g.ID); return err },
		"RecordHint":  func() error { _, err := s.RecordHint(ctx, g.ID, 1); return err },
		"RecordCheck": func() error { _, err := s.RecordCheck(ctx, g.ID); return err },
	} {
		if err := call(); !errors.Is(err, ErrFinished) {
			t.Errorf("%s on a finished game = %v, want ErrFinished", name, err)
		}
	}
	// A personal game solved records no daily result.
	p := mustStart(t, s, testGame("ada"))
	if f, err := s.Finish(ctx, p.ID, Solved, end); err != nil || !f.Now || f.Result != nil {
		t.Errorf("Finish personal game = %+v, %v; want finished, no result", f, err)
	}
}

func testActiveGames(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	a := mustStart(t, s, testGame("ada"))
	b := mustStart(t, s, testGame("ada"))
	c := mustStart(t, s, testGame("ada"))
	mustStart(t, s, testGame("bob"))
	if _, err := s.Finish(ctx, b.ID, GaveUp, t0); err != nil {
		t.Fatal(err)
	}
	games, err := s.ActiveGames(ctx, "ada", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 2 || games[0].ID != c.ID || games[1].ID != a.ID {
		var ids []int64
		for _, g := range games {
			ids = append(ids, g.ID)
		}
		t.Errorf("ActiveGames = %v, want [%d %d]", ids, c.ID, a.ID)
	}
}

// TestConcurrentFinishesCountOnce mashes "finish" on one daily game from many
// goroutines and from a second Store on the same file (as a second shard
// would): exactly one call wins and one result is recorded.
func testConcurrentFinishesCountOnce(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	s2 := second()
	for round := range 5 {
		user := string(rune('a' + round))
		g := mustStart(t, s, testDaily(user, "g1", t0, "hard"))
		if _, err := s.MarkViewed(ctx, g.ID, t0); err != nil {
			t.Fatal(err)
		}
		var wins, results atomic.Int32
		var wg sync.WaitGroup
		for i := range 16 {
			st := s
			if i%2 == 1 {
				st = s2
			}
			wg.Go(func() {
				f, err := st.Finish(ctx, g.ID, Solved, t0.Add(time.Duration(100+i)*time.Second))
				if err != nil {
					t.Errorf("Finish: %v", err)
					return
				}
				if f.Now {
					wins.Add(1)
				}
				if f.Result != nil {
					results.Add(1)
				}
			})
		}
		wg.Wait()
		if wins.Load() != 1 || results.Load() != 1 {
			t.Errorf("round %d: %d calls finished the game and %d recorded a result, want 1 and 1", round, wins.Load(), results.Load())
		}
		board, err := s.Leaderboard(ctx, "g1", t0, "hard", 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(board) != round+1 {
			t.Errorf("round %d: leaderboard has %d rows, want %d", round, len(board), round+1)
		}
	}
}

// testTimeZone: a profile starts empty, keeps the zone and floor set, a new
// zone replaces the old, PlayerData shows it and ForgetPlayer deletes it.
func testTimeZone(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	if p, err := s.Profile(ctx, "u1"); err != nil || p.TimeZone != "" || !p.ZoneFloor.IsZero() || p.UserID != "u1" {
		t.Fatalf("Profile of a newcomer = %+v, %v; want empty", p, err)
	}
	d1 := time.Date(2026, 3, 14, 0, 0, 0, 0, time.UTC)
	if err := s.SetTimeZone(ctx, "u1", "Pacific/Kiritimati", d1, t0); err != nil {
		t.Fatal(err)
	}
	if err := s.SetTimeZone(ctx, "u1", "Etc/GMT+12", d1.AddDate(0, 0, 1).Add(15*time.Hour), t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	p, err := second().Profile(ctx, "u1")
	if err != nil || p.TimeZone != "Etc/GMT+12" || !p.ZoneFloor.Equal(d1.AddDate(0, 0, 1)) || !p.UpdatedAt.Equal(t0.Add(time.Hour)) {
		t.Errorf("Profile after two changes = %+v, %v; want Etc/GMT+12 from 15 Mar", p, err)
	}
	if err := s.SetTimeZone(ctx, "u1", "", d1, t0); !errors.Is(err, ErrInvalid) {
		t.Errorf("SetTimeZone with no zone = %v, want ErrInvalid", err)
	}
	if d, err := s.PlayerData(ctx, "u1"); err != nil || d.Profile.TimeZone != "Etc/GMT+12" {
		t.Errorf("PlayerData profile = %+v, %v", d.Profile, err)
	}
	if _, err := s.ForgetPlayer(ctx, "u1"); err != nil {
		t.Fatal(err)
	}
	if p, err := s.Profile(ctx, "u1"); err != nil || p.TimeZone != "" {
		t.Errorf("Profile after ForgetPlayer = %+v, %v; want empty", p, err)
	}
}

// testArchiveGame: a replay of a past daily keeps its date, is no daily
// (a second one starts, no result is recorded on solving), and can't be
// both.
func testArchiveGame(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	day := time.Date(2026, 3, 13, 0, 0, 0, 0, time.UTC)
	ng := testGame("u1")
	ng.ArchiveDate, ng.Level = day.Add(5*time.Hour), "easy"
	a := mustStart(t, s, ng)
	b := mustStart(t, s, ng)
	if a.ID == b.ID || !a.ArchiveDate.Equal(day) || a.IsDaily() {
		t.Errorf("two archive starts = %d and %d, archive date %s, daily %v; want two games dated 13 Mar, not dailies", a.ID, b.ID, a.ArchiveDate, a.IsDaily())
	}
	f, err := s.Move(ctx, a.ID, []Change{{Cell: 0, Value: 5}}, winOn(81), t0.Add(time.Minute), nil)
	if err != nil || !f.Now || f.Result != nil {
		t.Errorf("solving an archive game = %+v, %v; want solved with no daily result", f, err)
	}
	if g, err := second().Game(ctx, a.ID); err != nil || !g.ArchiveDate.Equal(day) {
		t.Errorf("archive game reloaded = %+v, %v", g, err)
	}
	bad := testDaily("u1", "g1", day, "easy")
	bad.ArchiveDate = day
	if _, _, err := s.StartGame(ctx, bad); !errors.Is(err, ErrInvalid) {
		t.Errorf("a daily that is also an archive replay = %v, want ErrInvalid", err)
	}
}
