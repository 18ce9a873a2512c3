package store

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// backend is everything both stores offer; the contract below holds for
// each of them.
type backend interface {
	StartGame(ctx context.Context, ng NewGame) (Game, bool, error)
	Game(ctx context.Context, id int64) (Game, error)
	DailyGame(ctx context.Context, userID string, date time.Time, level string) (Game, error)
	ActiveGames(ctx context.Context, userID string, limit int) ([]Game, error)
	WatchGames(ctx context.Context, fn func(GameChange)) error
	MarkViewed(ctx context.Context, id int64, now time.Time) (Game, error)
	ApplyMoves(ctx context.Context, id int64, changes []Change) (Game, error)
	Move(ctx context.Context, id int64, changes []Change, solved []uint8, now time.Time, judge Judge) (Finished, error)
	Undo(ctx context.Context, id int64) (Game, error)
	MoveCount(ctx context.Context, id int64) (int, error)
	RecordHint(ctx context.Context, id int64, stage int) (Game, error)
	RecordCheck(ctx context.Context, id int64) (Game, error)
	Finish(ctx context.Context, id int64, status Status, now time.Time) (Finished, error)
	Leaderboard(ctx context.Context, guildID string, date time.Time, level string, limit int) ([]Result, error)
	Flagged(ctx context.Context, guildID string, since time.Time, limit int) ([]Result, error)
	Stats(ctx context.Context, userID string, today time.Time) (Stats, error)
	SetDaily(ctx context.Context, guildID, channelID string, hour int, now time.Time) error
	StopDaily(ctx context.Context, guildID string, now time.Time) error
	Settings(ctx context.Context, guildID string) (GuildSettings, error)
	DailyGuilds(ctx context.Context) ([]GuildSettings, error)
	SetWatched(ctx context.Context, guildID, channelID string, on bool) error
	Watched(ctx context.Context, guildID, channelID string) (bool, error)
	WatchedChannels(ctx context.Context, guildID string) ([]string, error)
	ClaimPost(ctx context.Context, guildID, channelID string, date time.Time, by string, now time.Time) (bool, error)
	ReleasePost(ctx context.Context, guildID, channelID string, date time.Time) error
	Setting(ctx context.Context, key string) (string, error)
	InitSetting(ctx context.Context, key, value string) (string, error)
	SchemaVersion(ctx context.Context) (int, error)
	ClaimIdentify(ctx context.Context, bucket int, every time.Duration, now time.Time) (time.Duration, error)
	FirstSeen(ctx context.Context, signature string, expires, now time.Time) (bool, error)
	PlayerData(ctx context.Context, userID string) (PlayerData, error)
	ForgetPlayer(ctx context.Context, userID string) (Forgotten, error)
	ForgetGuild(ctx context.Context, guildID string) error
	Profile(ctx context.Context, userID string) (Profile, error)
	SetTimeZone(ctx context.Context, userID, zone string, floor, now time.Time) error
	MoveBy(ctx context.Context, id int64, mover string, changes []Change, solved []uint8, now time.Time) (Finished, error)
	Movers(ctx context.Context, id int64) (map[string]int, error)
	CreateRace(ctx context.Context, nr NewRace) (Race, error)
	Race(ctx context.Context, id int64) (Race, error)
	OpenRaces(ctx context.Context, limit int) ([]Race, error)
	OpenInstanceRace(ctx context.Context, instance string, nr NewRace) (Race, bool, error)
	InstanceRace(ctx context.Context, instance string, kind RaceKind) (Race, error)
	RaceInstance(ctx context.Context, id int64) (string, error)
	CellMovers(ctx context.Context, id int64) (map[int]string, error)
	RecentPlacements(ctx context.Context, id int64, n int) ([]PlacedMove, error)
	EnterInstanceRace(ctx context.Context, id int64, userID, name string, most int, now time.Time) (Race, error)
	JoinRace(ctx context.Context, id int64, userID, name string, most int, now time.Time) (Race, bool, error)
	LeaveRace(ctx context.Context, id int64, userID string, now time.Time) (Race, bool, error)
	StartRace(ctx context.Context, id int64, startAt time.Time) (Race, bool, error)
	EndRace(ctx context.Context, id int64, now time.Time) (Race, bool, error)
	SetRaceMessages(ctx context.Context, id int64, lobby, thread, board string) (Race, error)
	ClaimRaceBoard(ctx context.Context, id int64, claim string) (bool, error)
	ReleaseRaceBoard(ctx context.Context, id int64, claim string) error
	SetRaceGame(ctx context.Context, id, gameID int64) error
	RacerGame(ctx context.Context, id int64, userID string, ng NewGame) (Game, error)
	RacerMoved(ctx context.Context, id int64, userID, name string, mistakes int, now time.Time) error
	RacerDone(ctx context.Context, id int64, userID string, status RacerStatus, now time.Time) (bool, error)
	MarkIdle(ctx context.Context, id int64, cutoff, now time.Time) (Race, error)
	Board(ctx context.Context, q BoardQuery) ([]Standing, error)
	SetGlobalBoards(ctx context.Context, guildID string, on bool, now time.Time) error
	SetHideName(ctx context.Context, userID string, hide bool, now time.Time) error
	PersonalBests(ctx context.Context, userID string) ([]Best, error)
	RateGame(ctx context.Context, rg RatedGame, rate Rater) (RatingChange, bool, error)
	PlayerRating(ctx context.Context, userID string) (Rating, bool, error)
	PuzzleRating(ctx context.Context, puzzle string) (Rating, bool, error)
	RatingHistory(ctx context.Context, userID string, limit int) ([]RatingChange, error)
	Close() error
}

var (
	_ backend = (*Store)(nil)
	_ backend = (*Postgres)(nil)
)

// contract is the one table of behaviour both backends must show. Each
// case gets a fresh, empty database s; second opens another handle on the
// same database, as a second process would (closed when the test ends).
var contract = []struct {
	name string
	run  func(t *testing.T, s backend, second func() backend)
}{
	{"StartGame", testStartGame},
	{"StartGameRejects", testStartGameRejects},
	{"WatchGames", testWatchGames},
	{"DailyGameResumes", testDailyGameResumes},
	{"ConcurrentDailyStartsMakeOneGame", testConcurrentDailyStartsMakeOneGame},
	{"GameNotFound", testGameNotFound},
	{"MarkViewedKeepsFirst", testMarkViewedKeepsFirst},
	{"ApplyMovesAndUndo", testApplyMovesAndUndo},
	{"ApplyMovesRejectsWholeBatch", testApplyMovesRejectsWholeBatch},
	{"ConcurrentMovesAllKept", testConcurrentMovesAllKept},
	{"HintsAndChecksCount", testHintsAndChecksCount},
	{"Finish", testFinish},
	{"ActiveGames", testActiveGames},
	{"ConcurrentFinishesCountOnce", testConcurrentFinishesCountOnce},
	{"LeaderboardOrder", testLeaderboardOrder},
	{"StatsStreakAcrossDays", testStatsStreakAcrossDays},
	{"DailySettings", testDailySettings},
	{"WatchedChannels", testWatchedChannels},
	{"ClaimPostOnce", testClaimPostOnce},
	{"SecondHandleSeesData", testSecondHandleSeesData},
	{"ClaimIdentifySlots", testClaimIdentifySlots},
	{"FirstSeenOncePerSignature", testFirstSeenOncePerSignature},
	{"MoveFinishesWithTheLastMove", testMoveFinishesWithTheLastMove},
	{"TimeZone", testTimeZone},
	{"ArchiveGame", testArchiveGame},
	{"JudgedSolveIsKeptButMarked", testJudgedSolveIsKeptButMarked},
	{"InitSetting", testInitSetting},
	{"PlayerDataAndForget", testPlayerDataAndForget},
	{"ForgetGuild", testForgetGuild},
	{"RaceLifecycle", testRaceLifecycle},
	{"InstanceRaces", testInstanceRaces},
	{"RecentPlacements", testRecentPlacements},
	{"ConcurrentRaceStartOnce", testConcurrentRaceStartOnce},
	{"CoopMovers", testCoopMovers},
	{"Boards", testBoards},
	{"RateGameOnce", testRateGameOnce},
	{"ConcurrentRatingsSerialize", testConcurrentRatingsSerialize},
	{"PersonalBests", testPersonalBests},
}

// opener makes a fresh, empty database for one test and returns a
// function that opens a handle on it, as a process would (the first one
// creates the schema); every handle is closed when the test ends.
type opener func(t testing.TB) func() (backend, error)

func openSQLite(t testing.TB) func() (backend, error) {
	path := filepath.Join(t.TempDir(), "contract.db")
	return closing(t, func() (*Store, error) { return Open(context.Background(), path) })
}

// closing is open with every handle it opens closed when t ends.
func closing[T backend](t testing.TB, open func() (T, error)) func() (backend, error) {
	return func() (backend, error) {
		s, err := open()
		if err != nil {
			return nil, err
		}
		t.Cleanup(func() { s.Close() })
		return s, nil
	}
}

// mustOpen is open that fails t when the database can't be opened.
func mustOpen(t testing.TB, open func() (backend, error)) func() backend {
	return func() backend {
		t.Helper()
		s, err := open()
		if err != nil {
			t.Fatalf("open: %v", err)
		}
		return s
	}
}

// coreOf is the implementation behind s, for what the contract's methods
// don't show (the schema_version table).
func coreOf(s backend) *core {
	switch s := s.(type) {
	case *Store:
		return &s.core
	case *Postgres:
		return &s.core
	}
	panic(fmt.Sprintf("no core in %T", s))
}

// backends are the databases the contract and the benchmarks run on; the
// PostgreSQL one needs DATABASE_URL_TEST (see requirePostgres).
var backends = []struct {
	name string
	open opener
	// require skips (or fails) a test that can't reach the database.
	require func(t testing.TB)
}{
	{"sqlite", openSQLite, func(testing.TB) {}},
	{"postgres", openPostgresTest, func(t testing.TB) { requirePostgres(t) }},
}

// TestContract runs the contract table against SQLite, and against
// PostgreSQL when DATABASE_URL_TEST names a server.
func TestContract(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			b.require(t)
			for _, c := range contract {
				t.Run(c.name, func(t *testing.T) {
					open := mustOpen(t, b.open(t))
					c.run(t, open(), open)
				})
			}
		})
	}
}

// TestOpenConcurrentlyMigratesOnce opens a new database from four handles
// at once, as processes starting together do: each migration is applied
// once.
func TestOpenConcurrentlyMigratesOnce(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			b.require(t)
			open := b.open(t)
			handles := make([]backend, 4)
			errs := make([]error, 4)
			var wg sync.WaitGroup
			for i := range handles {
				wg.Go(func() { handles[i], errs[i] = open() })
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Fatalf("open #%d: %v", i, err)
				}
			}
			c := coreOf(handles[0])
			var rows int
			if err := c.w.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM schema_version`).Scan(&rows); err != nil {
				t.Fatal(err)
			}
			if ms, _ := c.d.loadMigrations(); rows != len(ms) {
				t.Errorf("schema_version has %d rows, want %d: a migration ran twice", rows, len(ms))
			}
		})
	}
}

// TestOpenRefusesNewerSchema: a database a newer program has migrated is
// refused, saying so.
func TestOpenRefusesNewerSchema(t *testing.T) {
	ctx := context.Background()
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			b.require(t)
			open := b.open(t)
			s := mustOpen(t, open)()
			if _, err := coreOf(s).w.ExecContext(ctx, `INSERT INTO schema_version (version) VALUES (999)`); err != nil {
				t.Fatal(err)
			}
			if _, err := open(); err == nil || !strings.Contains(err.Error(), "newer") {
				t.Fatalf("open on a version-999 database = %v, want an error saying the schema is newer", err)
			}
		})
	}
}

// testConcurrentMovesAllKept applies moves to one game from many
// goroutines on two handles: every move lands, each as its own undo step.
func testConcurrentMovesAllKept(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	s2 := second()
	g := mustStart(t, s, testGame("ada"))
	const n = 20
	errs := make(chan error, n)
	for i := range n {
		st := s
		if i%2 == 1 {
			st = s2
		}
		go func() {
			_, err := st.ApplyMoves(ctx, g.ID, []Change{{Cell: i, Value: uint8(i%9 + 1)}})
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Errorf("ApplyMoves: %v", err)
		}
	}
	got, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Moves != n {
		t.Errorf("Moves = %d after %d concurrent moves, want %d", got.Moves, n, n)
	}
	for i := range n {
		if got.Entries[i] != uint8(i%9+1) {
			t.Errorf("cell %d = %d, want %d: a concurrent move was lost", i, got.Entries[i], i%9+1)
		}
	}
	if c, _ := s.MoveCount(ctx, g.ID); c != n {
		t.Errorf("MoveCount = %d, want %d distinct undo steps", c, n)
	}
}

// testSecondHandleSeesData: what one handle commits, another (a second
// process) reads at once, and reopening keeps the schema version.
func testSecondHandleSeesData(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	g := mustStart(t, s, testGame("ada"))
	if _, err := s.ApplyMoves(ctx, g.ID, []Change{{Cell: 4, Value: 7}}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetDaily(ctx, "g1", "c1", 5, t0); err != nil {
		t.Fatal(err)
	}
	s2 := second()
	got, err := s2.Game(ctx, g.ID)
	if err != nil || got.Entries[4] != 7 {
		t.Errorf("second handle: Game(%d) = cell 4 %d, %v; want 7", g.ID, got.Entries[4], err)
	}
	if st, err := s2.Settings(ctx, "g1"); err != nil || st.DailyChannel != "c1" || st.DailyHour != 5 {
		t.Errorf("second handle: Settings = %+v, %v", st, err)
	}
	v1, err1 := s.SchemaVersion(ctx)
	v2, err2 := s2.SchemaVersion(ctx)
	if err1 != nil || err2 != nil || v1 != v2 || v1 < 1 {
		t.Errorf("schema versions %d (%v) and %d (%v), want equal and at least 1", v1, err1, v2, err2)
	}
}

// testClaimIdentifySlots: one Identify per bucket per interval, whoever
// asks, and the wait until the next slot otherwise.
func testClaimIdentifySlots(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	every := 5 * time.Second
	steps := []struct {
		bucket int
		at     time.Duration
		want   time.Duration
	}{
		{0, 0, 0},
		{0, time.Second, 4 * time.Second},
		{1, time.Second, 0},
		{0, 5 * time.Second, 0},
		{0, 9 * time.Second, time.Second},
		{1, 30 * time.Second, 0},
	}
	for _, st := range steps {
		got, err := s.ClaimIdentify(ctx, st.bucket, every, t0.Add(st.at))
		if err != nil || got != st.want {
			t.Errorf("ClaimIdentify(bucket %d at +%s) = %s, %v; want %s", st.bucket, st.at, got, err, st.want)
		}
	}
	// Many callers on two handles at the same instant: one slot.
	if n := winners(t, s, second(), func(st backend) (bool, error) {
		w, err := st.ClaimIdentify(ctx, 7, every, t0)
		return w == 0, err
	}); n != 1 {
		t.Errorf("%d concurrent callers got bucket 7's slot, want 1", n)
	}
}

// winners has 12 callers, half on s and half on s2 (another process's
// handle), try at once, and counts those that won.
func winners(t *testing.T, s, s2 backend, try func(backend) (bool, error)) int {
	t.Helper()
	var won atomic.Int32
	var wg sync.WaitGroup
	for i := range 12 {
		st := s
		if i%2 == 1 {
			st = s2
		}
		wg.Go(func() {
			ok, err := try(st)
			if err != nil {
				t.Error(err)
			}
			if ok {
				won.Add(1)
			}
		})
	}
	wg.Wait()
	return int(won.Load())
}

// testFirstSeenOncePerSignature: a signature is new once, on any handle,
// until it expires; then it is swept and would count as new again.
func testFirstSeenOncePerSignature(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	window := 5 * time.Minute
	s2 := second()
	steps := []struct {
		on   backend
		sig  string
		at   time.Duration
		want bool
	}{
		{s, "sig-a", 0, true},
		{s, "sig-a", time.Second, false},
		{s2, "sig-a", 2 * time.Second, false}, // another process sees it too
		{s2, "sig-b", 2 * time.Second, true},
		{s, "sig-b", 3 * time.Second, false},
		{s, "sig-a", window - time.Second, false},
		{s, "sig-a", window + time.Second, true}, // expired, swept, recorded anew
		{s2, "sig-a", window + 2*time.Second, false},
	}
	for _, st := range steps {
		now := t0.Add(st.at)
		got, err := st.on.FirstSeen(ctx, st.sig, now.Add(window), now)
		if err != nil || got != st.want {
			t.Errorf("FirstSeen(%s at +%s) = %v, %v; want %v", st.sig, st.at, got, err, st.want)
		}
	}
	// Many callers on two handles with the same signature at once: one is first.
	if n := winners(t, s, s2, func(st backend) (bool, error) {
		return st.FirstSeen(ctx, "sig-race", t0.Add(window), t0)
	}); n != 1 {
		t.Errorf("%d concurrent callers saw sig-race first, want 1", n)
	}
}
