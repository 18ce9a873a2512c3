package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"sudokubot/commands"
	"sudokubot/internal/fakediscord"
	"sudokubot/store"
	"sudokubot/sudoku"
)

// End-to-end tests of playing and the daily challenge: the real commands
// and store behind the real discordgo session, against the fake Discord,
// with the bot's clock injected so that days can pass.

// playPuzzles stand in for the generator (puzzle, solution), so the tests
// do not depend on how long generation takes.
var playPuzzles = [][2]string{
	{"000075400000000008080190000300001060000000034000068170204000603900000020530200000", "693875412145632798782194356357421869816957234429368175274519683968743521531286947"},
	{"300000000050703008000028070700000043000000000003904105400300800100040000968000200", "387419526259763418641528379716285943594631782823974165472396851135842697968157234"},
	{"302609005500730000000000900000940000000000109000057060008500006000000003019082040", "382619475594738621176425938863941752457263189921857364738594216245176893619382547"},
}

// testPuzzles hands out playPuzzles: Daily by level and day (the same for
// every caller), Generate by level.
type testPuzzles struct{}

func gridOf(text string) *sudoku.Grid {
	g, err := sudoku.Parse(text)
	if err != nil {
		panic(err)
	}
	return g
}

func (testPuzzles) pick(i int) sudoku.Puzzle {
	p := playPuzzles[i%len(playPuzzles)]
	return sudoku.Puzzle{Grid: gridOf(p[0]), Solution: gridOf(p[1])}
}

func (tp testPuzzles) Generate(ctx context.Context, opts sudoku.GenerateOptions) (sudoku.Puzzle, error) {
	return tp.pick(int(opts.Level)), nil
}

var dailyEpoch = sudoku.DailyEpoch

func (tp testPuzzles) Daily(ctx context.Context, date time.Time, level sudoku.Level) (sudoku.DailyPuzzle, error) {
	y, m, d := date.UTC().Date()
	day := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	n := int(day.Sub(dailyEpoch).Hours()/24) + 1
	return sudoku.DailyPuzzle{Number: n, Date: day, Level: level, Puzzle: tp.pick(int(level) + n)}, nil
}

// solutionOf looks up the solution of a one-line puzzle ('.' blanks).
func solutionOf(t testing.TB, puzzle string) string {
	t.Helper()
	for _, p := range playPuzzles {
		if strings.ReplaceAll(p[0], "0", ".") == puzzle {
			return p[1]
		}
	}
	t.Fatalf("unknown puzzle %q", puzzle)
	return ""
}

// fakeClock is the bot's injected clock; tests move it.
type fakeClock struct{ ns atomic.Int64 }

func newFakeClock(t time.Time) *fakeClock {
	c := &fakeClock{}
	c.Set(t)
	return c
}

func (c *fakeClock) Now() time.Time  { return time.Unix(0, c.ns.Load()).UTC() }
func (c *fakeClock) Set(t time.Time) { c.ns.Store(t.UnixNano()) }

// playBot is a bot with a store file, on a fake Discord.
type playBot struct {
	tb   testing.TB
	fake *fakediscord.Server
	st   *store.Store
	svc  *commands.Service
	bot  *Bot
	logs *syncBuffer
	stop context.CancelFunc
	done chan error
}

// startPlayBot starts a bot whose commands keep games in the SQLite file
// at path. clock, when not nil, replaces the bot's clock.
func startPlayBot(tb testing.TB, fake *fakediscord.Server, path string, clock *fakeClock) *playBot {
	tb.Helper()
	return startPlayBotWith(tb, fake, path, clock, nil)
}

// startPlayBotWith is startPlayBot with change, when not nil, applied to
// the bot's and the commands' configuration first.
func startPlayBotWith(tb testing.TB, fake *fakediscord.Server, path string, clock *fakeClock, change func(*Config, *commands.Config)) *playBot {
	tb.Helper()
	st, err := store.Open(context.Background(), path)
	if err != nil {
		tb.Fatalf("store.Open: %v", err)
	}
	ccfg := commands.Config{SolveTimeout: 2 * time.Second, Settings: st, Games: st, Puzzles: testPuzzles{}}
	cfg := Config{
		Token: testToken, APIBase: fake.URL(),
		SolveTimeout: 2 * time.Second, DeferAfter: 1500 * time.Millisecond, ShutdownWait: 3 * time.Second,
		RateBurst: 1 << 20, RatePerMinute: 1 << 20,
	}
	if change != nil {
		change(&cfg, &ccfg)
	}
	svc := commands.New(ccfg)
	logs := &syncBuffer{}
	b, err := New(cfg, svc, log.New(logs, "", 0))
	if err != nil {
		tb.Fatalf("New: %v", err)
	}
	if clock != nil {
		b.now = clock.Now // before Run: nothing reads it yet
	}
	ctx, cancel := context.WithCancel(context.Background())
	pb := &playBot{tb: tb, fake: fake, st: st, svc: svc, bot: b, logs: logs, stop: cancel, done: make(chan error, 1)}
	registered := len(fake.Calls())
	go func() { pb.done <- b.Run(ctx) }()
	if _, err := fake.WaitCall(waitLong, func(c fakediscord.Call) bool {
		return c.Seq > registered && c.Method == "PUT" && strings.Contains(c.Path, "/commands")
	}); err != nil {
		cancel()
		tb.Fatalf("bot never registered its commands: %v\nlogs:\n%s", err, logs)
	}
	if !fake.WaitSessions(waitLong, 1, 0) {
		tb.Fatal("no gateway session")
	}
	for deadline := time.Now().Add(waitLong); b.self() == ""; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			tb.Fatal("the bot never saw READY")
		}
	}
	tb.Cleanup(pb.close)
	return pb
}

// close stops the bot and closes the store (idempotent), as a shutdown does.
func (pb *playBot) close() {
	if pb.stop == nil {
		return
	}
	pb.stop()
	pb.stop = nil
	select {
	case <-pb.done:
	case <-time.After(waitLong):
		pb.tb.Errorf("Run did not return")
	}
	pb.st.Close()
}

func (pb *playBot) send(user fakediscord.User, guild string, typ int, data any) fakediscord.Pending {
	pb.tb.Helper()
	p, err := pb.fake.Interact(fakediscord.Interaction{Type: typ, GuildID: guild, User: user, Data: data})
	if err != nil {
		pb.tb.Fatalf("Interact: %v", err)
	}
	return p
}

func (pb *playBot) slash(user fakediscord.User, guild, name string, opts ...fakediscord.Option) fakediscord.Call {
	pb.tb.Helper()
	return pb.answer(pb.send(user, guild, fakediscord.ApplicationCommand, fakediscord.Slash(name, opts...)))
}

func (pb *playBot) click(user fakediscord.User, guild, customID string) fakediscord.Call {
	pb.tb.Helper()
	return pb.answer(pb.send(user, guild, fakediscord.MessageComponent, fakediscord.Button(customID)))
}

func (pb *playBot) submitMoves(user fakediscord.User, guild string, gameID, moves string) (fakediscord.Pending, fakediscord.Call) {
	pb.tb.Helper()
	p := pb.send(user, guild, fakediscord.ModalSubmit, fakediscord.Modal("gmove:"+gameID, map[string]string{"moves": moves}))
	return p, pb.answer(p)
}

// answer waits for the message that answers p: the first callback, or the
// edit or follow-up after a deferral.
func (pb *playBot) answer(p fakediscord.Pending) fakediscord.Call {
	pb.tb.Helper()
	c, err := pb.fake.WaitCall(waitLong, func(c fakediscord.Call) bool { return c.Interaction == p.ID && c.IsCallback() })
	if err != nil {
		pb.tb.Fatalf("interaction %s: no callback: %v\nlogs:\n%s", p.ID, err, pb.logs)
	}
	if c.Status >= 300 {
		pb.tb.Fatalf("interaction %s: callback refused %d: %s", p.ID, c.Status, c.Body)
	}
	if t := c.CallbackType(); t == 5 || t == 6 || (t == 4 && isQueuedNotice(c)) {
		c, err = pb.fake.WaitCall(waitLong, func(c fakediscord.Call) bool {
			return c.Interaction == p.ID && (c.IsOriginalEdit() || c.IsFollowUp())
		})
		if err != nil {
			pb.tb.Fatalf("interaction %s: deferred and never answered: %v", p.ID, err)
		}
	}
	return c
}

// followUp waits for a public follow-up message of p. (A private answer
// to a public deferral, on a slow machine, is a follow-up too.)
func (pb *playBot) followUp(p fakediscord.Pending) fakediscord.Call {
	pb.tb.Helper()
	c, err := pb.fake.WaitCall(waitLong, func(c fakediscord.Call) bool { return c.Interaction == p.ID && c.IsFollowUp() && !c.Ephemeral() })
	if err != nil {
		pb.tb.Fatalf("interaction %s: no follow-up: %v", p.ID, err)
	}
	return c
}

var puzzleLine = regexp.MustCompile("Puzzle: `([^`]+)`")

// game reads a game message: its id and its puzzle.
func game(t testing.TB, c fakediscord.Call) (id, puzzle string) {
	t.Helper()
	enter := buttons(c)["Enter moves"]
	if !strings.HasPrefix(enter, "game:m:") {
		t.Fatalf("no Enter moves button in %s", c.Body)
	}
	m := puzzleLine.FindStringSubmatch(text(c))
	if m == nil {
		t.Fatalf("no puzzle line in %q", text(c))
	}
	return strings.TrimPrefix(enter, "game:m:"), m[1]
}

// fillMoves writes the moves that fill every blank of puzzle from solution.
func fillMoves(puzzle, solution string) string {
	var moves []string
	for i := range puzzle {
		if puzzle[i] == '.' {
			moves = append(moves, fmt.Sprintf("%c%d %c", 'A'+i/9, i%9+1, solution[i]))
		}
	}
	return strings.Join(moves, "\n")
}

var day1 = time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC)

func TestE2EPlayFullGame(t *testing.T) {
	t.Parallel()
	clock := newFakeClock(day1)
	fake := fakediscord.New(t, fakediscord.Options{Token: testToken, Guilds: []string{"500", "501"}})
	pb := startPlayBot(t, fake, filepath.Join(t.TempDir(), "e2e.db"), clock)

	c := pb.slash(alice, "500", "play", fakediscord.Str("level", "hard"))
	if !c.Ephemeral() {
		t.Error("the game message is public, want ephemeral")
	}
	wantBoard(t, c)
	id, puzzle := game(t, c)
	bs := buttons(c)
	for _, l := range []string{"Enter moves", "Hint", "Check", "Undo", "Give up"} {
		if bs[l] == "" {
			t.Errorf("game buttons %v lack %q", bs, l)
		}
	}
	// Enter moves opens the modal.
	modal := pb.click(alice, "500", bs["Enter moves"])
	var m struct {
		Type int `json:"type"`
		Data struct {
			CustomID string `json:"custom_id"`
		} `json:"data"`
	}
	if err := modal.Decode(&m); err != nil || m.Type != 9 || m.Data.CustomID != "gmove:"+id {
		t.Fatalf("Enter moves answered %s, want the gmove modal", modal.Body)
	}
	solution := solutionOf(t, puzzle)
	// A batch with a bad move: the good one applies, the bad one is named.
	clock.Set(day1.Add(time.Minute))
	blank := strings.IndexByte(puzzle, '.')
	_, c = pb.submitMoves(alice, "500", id, fmt.Sprintf("Q1 5\n%c%d %c", 'A'+blank/9, blank%9+1, solution[blank]))
	if c.CallbackType() != 7 || !strings.Contains(text(c), "Played 1 move") || !strings.Contains(text(c), "`Q1` — not a cell") {
		t.Errorf("mixed batch: type %d, %q", c.CallbackType(), text(c))
	}
	wantBoard(t, c)
	// The rest, in three more modals (half the board in one would be the
	// solution entered at once, not rated): solved, announced in public
	// without a ping.
	rest := strings.Split(fillMoves(puzzle, solution), "\n")
	third := len(rest) / 3
	clock.Set(day1.Add(3 * time.Minute))
	pb.submitMoves(alice, "500", id, strings.Join(rest[:third], "\n"))
	clock.Set(day1.Add(5 * time.Minute))
	pb.submitMoves(alice, "500", id, strings.Join(rest[third:2*third], "\n"))
	clock.Set(day1.Add(6*time.Minute + 41*time.Second))
	p, c := pb.submitMoves(alice, "500", id, strings.Join(rest[2*third:], "\n"))
	if !strings.Contains(text(c), "Solved in 6:41") || len(buttons(c)) != 0 {
		t.Errorf("final answer %q with buttons %v", text(c), buttons(c))
	}
	ann := pb.followUp(p)
	if ann.Ephemeral() || ann.Content() != "alice solved a hard 9x9 in 6:41, no hints." {
		t.Errorf("announcement %q (ephemeral %v)", ann.Content(), ann.Ephemeral())
	}
}

// TestE2EPlayHintUsesPencilMarks: Hint in a game reasons from the
// player's pencil marks: a candidate wrongly erased is named first; once it
// is back, the hint is the one the engine gives for the position with those
// marks; opening all three levels counts one hint.
func TestE2EPlayHintUsesPencilMarks(t *testing.T) {
	t.Parallel()
	clock := newFakeClock(day1)
	fake := fakediscord.New(t, fakediscord.Options{Token: testToken, Guilds: []string{"500"}})
	pb := startPlayBot(t, fake, filepath.Join(t.TempDir(), "e2e.db"), clock)

	c := pb.slash(alice, "500", "play", fakediscord.Str("level", "hard"))
	id, puzzle := game(t, c)
	solution := solutionOf(t, puzzle)
	pz := gridOf(puzzle)
	// Pencil marks in the first two blanks: all their candidates but the
	// solution's value in the first, all of them in the second.
	cands := pz.Candidates()
	var blanks []int
	for i := range puzzle {
		if puzzle[i] == '.' {
			blanks = append(blanks, i)
		}
	}
	a, b := blanks[0], blanks[1]
	sa := int(solution[a] - '0')
	marks := func(cell int, m uint32) string {
		var digits strings.Builder
		for _, v := range sudoku.MaskValues(m) {
			digits.WriteByte(byte('0' + v))
		}
		return fmt.Sprintf("%s p%s", pz.Shape.CellName(cell), digits.String())
	}
	_, c = pb.submitMoves(alice, "500", id, marks(a, cands[a]&^(1<<(sa-1)))+"\n"+marks(b, cands[b]))
	if !strings.Contains(text(c), "Played 2 moves") {
		t.Fatalf("pencil moves: %q", text(c))
	}
	c = pb.click(alice, "500", "game:h:"+id)
	// Level 1 names the cell, not the candidate it needs (its answer).
	want := fmt.Sprintf("%s lost a candidate it needs", pz.Shape.CellName(a))
	if !strings.Contains(text(c), want) {
		t.Fatalf("hint with a wrongly erased candidate = %q, want %q", text(c), want)
	}
	wantBoard(t, c)

	// Put it back (and narrow A's marks to two candidates): the hint is the
	// engine's for the position with these marks.
	two := uint32(1)<<(sa-1) | cands[a]&^(1<<(sa-1))&-(cands[a]&^(1<<(sa-1)))
	pb.submitMoves(alice, "500", id, marks(a, two))
	pos := pz.Clone()
	pos.Marks = make([]uint32, len(pos.Cells))
	pos.Marks[a], pos.Marks[b] = two, cands[b]
	var wantTexts []string
	for level := sudoku.HintTechnique; level <= sudoku.HintStep; level++ {
		h, err := sudoku.Hint(context.Background(), pz, pos, level)
		if err != nil {
			t.Fatal(err)
		}
		wantTexts = append(wantTexts, h.Text)
	}
	c = pb.click(alice, "500", "game:h:"+id)
	if !strings.Contains(text(c), "Hint · level 1 of 3") || !strings.Contains(text(c), wantTexts[0]) {
		t.Fatalf("level-1 hint = %q, want %q", text(c), wantTexts[0])
	}
	bs := buttons(c)
	c = pb.click(alice, "500", bs["Where? (level 2)"])
	if !strings.Contains(text(c), "Hint · level 2 of 3") || !strings.Contains(text(c), wantTexts[1]) {
		t.Fatalf("level-2 hint = %q, want %q", text(c), wantTexts[1])
	}
	c = pb.click(alice, "500", buttons(c)["Show step (level 3)"])
	if !strings.Contains(text(c), "Hint · level 3 of 3") || !strings.Contains(text(c), wantTexts[2]) {
		t.Fatalf("level-3 hint = %q, want %q", text(c), wantTexts[2])
	}
	wantBoard(t, c)
	g, err := pb.st.Game(context.Background(), mustID(t, id))
	if err != nil {
		t.Fatal(err)
	}
	if g.Hints != 2 {
		t.Errorf("game counts %d hints after a hint on each of two positions (levels opened: 1, then 1-3), want 2", g.Hints)
	}
}

func mustID(t *testing.T, id string) int64 {
	t.Helper()
	var n int64
	if _, err := fmt.Sscan(id, &n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestE2EOtherUserRefusedAndRestart(t *testing.T) {
	t.Parallel()
	clock := newFakeClock(day1)
	path := filepath.Join(t.TempDir(), "restart.db")
	fake := fakediscord.New(t, fakediscord.Options{Token: testToken, Guilds: []string{"500"}})
	pb := startPlayBot(t, fake, path, clock)
	c := pb.slash(alice, "500", "play", fakediscord.Str("level", "easy"))
	id, puzzle := game(t, c)
	solution := solutionOf(t, puzzle)
	blank := strings.IndexByte(puzzle, '.')
	pb.submitMoves(alice, "500", id, fmt.Sprintf("%c%d %c", 'A'+blank/9, blank%9+1, solution[blank]))

	// Bob clicks Alice's buttons: refused, privately, her board untouched.
	for _, action := range []string{"m", "c", "u", "g", "G", "k", "h"} {
		r := pb.click(bob, "500", "game:"+action+":"+id)
		if r.CallbackType() != 4 || !r.Ephemeral() || !strings.Contains(text(r), "belongs to alice") {
			t.Errorf("Bob's %s click: type %d ephemeral %v %q", action, r.CallbackType(), r.Ephemeral(), text(r))
		}
	}
	_, r := pb.submitMoves(bob, "500", id, "A2 1")
	if !strings.Contains(text(r), "belongs to alice") {
		t.Errorf("Bob's moves: %q", text(r))
	}

	// Restart: a new bot process on the same database file (and a new
	// gateway session); Alice's buttons still work.
	pb.close()
	clock.Set(day1.Add(3 * time.Minute))
	fake2 := fakediscord.New(t, fakediscord.Options{Token: testToken, Guilds: []string{"500"}})
	pb2 := startPlayBot(t, fake2, path, clock)
	check := pb2.click(alice, "500", "game:c:"+id)
	if !strings.Contains(text(check), "your one entry is right") {
		t.Errorf("Check after restart: %q", text(check))
	}
	_, done := pb2.submitMoves(alice, "500", id, fillMoves(puzzle, solution))
	if !strings.Contains(text(done), "Solved in 3:00") || !strings.Contains(text(done), "1 check") {
		t.Errorf("finishing after restart: %q", text(done))
	}
}

func TestE2EDaily(t *testing.T) {
	t.Parallel()
	clock := newFakeClock(day1)
	fake := fakediscord.New(t, fakediscord.Options{Token: testToken, Guilds: []string{"500", "501"}})
	pb := startPlayBot(t, fake, filepath.Join(t.TempDir(), "daily.db"), clock)
	carol := fakediscord.User{ID: "13", Username: "carol", Discriminator: "0"}

	play := func(u fakediscord.User, guild, level string, took time.Duration) fakediscord.Call {
		t.Helper()
		start := clock.Now()
		c := pb.slash(u, guild, "daily", fakediscord.Sub("play", fakediscord.Str("level", level)))
		id, puzzle := game(t, c)
		// Most moves in one entry, the last few in another: a daily
		// finished by an entry that fills half the board is kept off the
		// boards (commands/fair.go).
		moves := strings.Split(fillMoves(puzzle, solutionOf(t, puzzle)), "\n")
		clock.Set(start.Add(took / 2))
		pb.submitMoves(u, guild, id, strings.Join(moves[:len(moves)-5], "\n"))
		clock.Set(start.Add(took))
		_, done := pb.submitMoves(u, guild, id, strings.Join(moves[len(moves)-5:], "\n"))
		clock.Set(start)
		return done
	}

	t.Run("same puzzle in two servers", func(t *testing.T) {
		a := pb.slash(alice, "500", "daily", fakediscord.Sub("play", fakediscord.Str("level", "hard")))
		b := pb.slash(bob, "501", "daily", fakediscord.Sub("play", fakediscord.Str("level", "hard")))
		ida, pa := game(t, a)
		idb, pbz := game(t, b)
		if pa != pbz || ida == idb {
			t.Errorf("alice (500) got %s game %s, bob (501) %s game %s: want one puzzle, two games", pa, ida, pbz, idb)
		}
		if !strings.Contains(text(a), "Daily #73 · hard") {
			t.Errorf("daily title: %q", text(a))
		}
	})

	t.Run("leaderboard order", func(t *testing.T) {
		play(alice, "500", "medium", 5*time.Minute)
		play(carol, "500", "medium", 3*time.Minute+5*time.Second)
		play(bob, "501", "medium", time.Minute) // another server's board
		c := pb.slash(alice, "500", "daily", fakediscord.Sub("leaderboard", fakediscord.Str("level", "medium")))
		want := "Medium: **1.** carol — 3:05 · no hints\n**2.** alice — 5:00 · no hints"
		if !strings.Contains(text(c), want) || strings.Contains(text(c), "bob") {
			t.Errorf("leaderboard:\n%s\nwant\n%s", text(c), want)
		}
	})

	t.Run("streak across three days", func(t *testing.T) {
		for d := range 3 {
			clock.Set(day1.AddDate(0, 0, d+1))
			play(carol, "500", "easy", 2*time.Minute)
		}
		c := pb.slash(carol, "500", "daily", fakediscord.Sub("stats"))
		// Day 1's medium and days 2-4's easy: four days in a row.
		if !strings.Contains(text(c), "current **4** · best **4**") || !strings.Contains(text(c), "4 dailies solved on 4 days") {
			t.Errorf("stats after four days:\n%s", text(c))
		}
		clock.Set(day1.AddDate(0, 0, 6))
		if c := pb.slash(carol, "500", "daily", fakediscord.Sub("stats")); !strings.Contains(text(c), "current **0** · best **4**") {
			t.Errorf("stats after a gap:\n%s", text(c))
		}
	})
}

func TestE2EDailyPoster(t *testing.T) {
	t.Parallel()
	clock := newFakeClock(day1.Add(-3 * time.Hour)) // 07:00
	path := filepath.Join(t.TempDir(), "poster.db")
	// Posts at Discord's pace, but in a window short enough for the
	// retries below not to wait for it.
	fake := fakediscord.New(t, fakediscord.Options{Token: testToken, Guilds: []string{"500"}, MessageRate: fakediscord.RateLimit{Limit: 5, Per: 200 * time.Millisecond}})
	pb := startPlayBot(t, fake, path, clock)
	ctx := context.Background()

	// A member without Manage Server is refused (Discord would hide the
	// command from them; a server may change that).
	p, err := fake.InteractRaw(func(id, tok string) json.RawMessage {
		return json.RawMessage(`{"id":"` + id + `","token":"` + tok + `","type":2,"application_id":"100","guild_id":"500","channel_id":"300",` +
			`"member":{"user":{"id":"12","username":"bob"},"permissions":"0"},` +
			`"data":{"name":"daily","type":1,"options":[{"name":"setup","type":1,"options":[{"name":"channel","type":7,"value":"777"}]}]}}`)
	})
	if err != nil {
		t.Fatal(err)
	}
	if c := pb.answer(p); !strings.Contains(text(c), "Manage Server") {
		t.Errorf("setup without permission: %q", text(c))
	}
	// A channel of another server (Discord resolves it with its server) is
	// refused: the poster would post there.
	c := pb.slash(alice, "500", "daily", fakediscord.Sub("setup", fakediscord.Channel("channel", "888", "501"), fakediscord.Int("hour", 9)))
	if !strings.Contains(text(c), "belongs to another server") {
		t.Errorf("setup with another server's channel: %q", text(c))
	}
	c = pb.slash(alice, "500", "daily", fakediscord.Sub("setup", fakediscord.Channel("channel", "777", ""), fakediscord.Int("hour", 9)))
	if !strings.Contains(text(c), "<#777> every day at 09:00 UTC") {
		t.Fatalf("setup: %q", text(c))
	}

	poster := NewPoster(pb.bot, pb.svc, 0)
	posts := func() []fakediscord.Call {
		var out []fakediscord.Call
		for _, c := range fake.Calls() {
			if c.IsChannelMessage() && strings.Contains(c.Path, "/channels/777/") {
				out = append(out, c)
			}
		}
		return out
	}
	if n, err := poster.PostDue(ctx); n != 0 || err != nil {
		t.Errorf("PostDue at 07:00 = %d, %v; want nothing before 09:00", n, err)
	}
	clock.Set(day1.Add(-50 * time.Minute)) // 09:10
	if n, err := poster.PostDue(ctx); n != 1 || err != nil {
		t.Fatalf("PostDue at 09:10 = %d, %v; want 1", n, err)
	}
	// Again, and from a second shard with its own connection to the file:
	// nothing more that day.
	st2, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	shard2 := NewPoster(pb.bot, commands.New(commands.Config{Games: st2, Puzzles: testPuzzles{}}), 0)
	for _, p := range []*Poster{poster, shard2} {
		if n, err := p.PostDue(ctx); n != 0 || err != nil {
			t.Errorf("second PostDue the same day = %d, %v; want 0", n, err)
		}
	}
	got := posts()
	if len(got) != 1 {
		t.Fatalf("%d posts to channel 777, want 1", len(got))
	}
	post := got[0]
	// No grid until a player presses Play: no picture, no puzzle line.
	if n := decodePNGs(t, post); n != 0 || !strings.Contains(text(post), "Daily #73") || strings.Contains(text(post), "...") {
		t.Errorf("the post has %d images and says %q; want no grid", n, text(post))
	}
	bs := buttons(post)
	for _, l := range []string{"Play easy", "Play medium", "Play hard", "Leaderboard"} {
		if bs[l] == "" {
			t.Errorf("post buttons %v lack %q", bs, l)
		}
	}
	// Play on the post: a private board of that daily.
	g := pb.click(bob, "500", bs["Play medium"])
	if !g.Ephemeral() || !strings.Contains(text(g), "Daily #73 · medium") {
		t.Errorf("Play medium: ephemeral %v, %q", g.Ephemeral(), text(g))
	}
	// Next day: posted once more, though Discord fails the post after
	// making it (the retry's nonce finds it); a stopped server gets
	// nothing.
	clock.Set(day1.AddDate(0, 0, 1))
	fake.Inject(fakediscord.Fault{Match: fakediscord.Call.IsChannelMessage, Status: 502, Applied: true})
	if n, _ := shard2.PostDue(ctx); n != 1 {
		t.Errorf("next day's PostDue = %d, want 1", n)
	}
	if n := len(fake.Messages("777")); n != 2 {
		t.Errorf("%d messages in channel 777 after a post failed once made, want 2", n)
	}
	// Next day again: every try of a round fails after Discord made the
	// message, until the round gives up and gives the claim back; the next
	// round's try carries the same nonce and finds the message made.
	clock.Set(day1.AddDate(0, 0, 2).Add(-50 * time.Minute))
	pb.bot.channels.budget, pb.bot.channels.backoff = 300*time.Millisecond, 20*time.Millisecond
	fake.Inject(fakediscord.Fault{Match: fakediscord.Call.IsChannelMessage, Status: 503, Applied: true, Times: 1 << 20})
	if n, err := poster.PostDue(ctx); n != 0 || err == nil {
		t.Errorf("PostDue with every try failing = %d, %v; want 0 and an error", n, err)
	}
	fake.ClearFaults()
	if n, err := shard2.PostDue(ctx); n != 1 || err != nil {
		t.Errorf("the next round's PostDue = %d, %v; want 1", n, err)
	}
	if n := len(fake.Messages("777")); n != 3 {
		t.Errorf("%d messages in channel 777 after a round gave up on a post made, want 3", n)
	}
	c = pb.slash(alice, "500", "daily", fakediscord.Sub("setup", fakediscord.Bool("off", true)))
	if !strings.Contains(text(c), "Daily posts are off") {
		t.Errorf("setup off: %q", text(c))
	}
	clock.Set(day1.AddDate(0, 0, 3))
	if n, _ := poster.PostDue(ctx); n != 0 {
		t.Errorf("PostDue after setup off = %d, want 0", n)
	}
	if n := len(fake.Messages("777")); n != 3 {
		t.Errorf("%d posts in all, want 3", n)
	}
}

// BenchmarkE2EMoveRoundTrip measures a move's round trip through the fake
// Discord — modal submit in, updated board image out — with 100 games in
// progress: from the moment the interaction is dispatched to the moment the
// fake receives the type-7 callback with the new PNG.
func BenchmarkE2EMoveRoundTrip(b *testing.B) {
	fake := fakediscord.New(b, fakediscord.Options{Token: testToken, Guilds: []string{"500"}})
	pb := startPlayBot(b, fake, filepath.Join(b.TempDir(), "bench.db"), nil)
	const games = 100
	type g struct {
		user     fakediscord.User
		id       string
		cells    []int // the blanks
		solution string
		next     int
	}
	var gs []*g
	for i := range games {
		u := fakediscord.User{ID: fmt.Sprint(2000 + i), Username: fmt.Sprint("player", i), Discriminator: "0"}
		c := pb.slash(u, "500", "play", fakediscord.Str("level", []string{"easy", "medium", "hard"}[i%3]))
		id, puzzle := game(b, c)
		gg := &g{user: u, id: id, solution: solutionOf(b, puzzle)}
		for j := range puzzle {
			if puzzle[j] == '.' {
				gg.cells = append(gg.cells, j)
			}
		}
		gs = append(gs, gg)
	}
	var lat []time.Duration
	b.ResetTimer()
	for i := range b.N {
		gg := gs[i%games]
		// Fill the blanks in order, then clear them, so no game finishes.
		cell := gg.cells[gg.next%len(gg.cells)]
		value := string(gg.solution[cell])
		if (gg.next/len(gg.cells))%2 == 1 {
			value = "."
		}
		gg.next++
		move := fmt.Sprintf("%c%d %s", 'A'+cell/9, cell%9+1, value)
		p := pb.send(gg.user, "500", fakediscord.ModalSubmit, fakediscord.Modal("gmove:"+gg.id, map[string]string{"moves": move}))
		c := pb.answer(p)
		if c.CallbackType() != 7 || len(c.Files) != 1 {
			b.Fatalf("move %q answered type %d with %d files: %s", move, c.CallbackType(), len(c.Files), text(c))
		}
		lat = append(lat, c.Since)
	}
	b.StopTimer()
	slices.Sort(lat)
	q := func(f float64) float64 { return float64(lat[int(f*float64(len(lat)-1))]) / float64(time.Millisecond) }
	b.ReportMetric(q(0.5), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
}

// TestE2EProfileTimezone: /profile timezone: autocompletes through Discord
// (an autocomplete interaction answered by a type-8 result within
// Discord's limits), the zone is set, and the player's daily follows their
// date: at 23:00 UTC on the 14th, Paris is on the 15th.
func TestE2EProfileTimezone(t *testing.T) {
	t.Parallel()
	clock := newFakeClock(time.Date(2026, 3, 14, 23, 0, 0, 0, time.UTC))
	fake := fakediscord.New(t, fakediscord.Options{Token: testToken, Guilds: []string{"500"}})
	pb := startPlayBot(t, fake, filepath.Join(t.TempDir(), "zone.db"), clock)

	p := pb.send(alice, "500", fakediscord.Autocomplete, fakediscord.Slash("profile", fakediscord.Typing(fakediscord.Str("timezone", "pari"))))
	c, err := fake.WaitCall(waitLong, func(c fakediscord.Call) bool { return c.Interaction == p.ID && c.IsCallback() })
	if err != nil {
		t.Fatalf("no autocomplete answer: %v\nlogs:\n%s", err, pb.logs)
	}
	var body struct {
		Type int `json:"type"`
		Data struct {
			Choices []struct{ Name, Value string } `json:"choices"`
		} `json:"data"`
	}
	if err := c.Decode(&body); err != nil || c.Status != 204 || body.Type != 8 || len(body.Data.Choices) == 0 || body.Data.Choices[0].Value != "Europe/Paris" {
		t.Fatalf("autocomplete answer %d %s (%v), want type 8 offering Europe/Paris first", c.Status, c.Body, err)
	}

	set := pb.slash(alice, "500", "profile", fakediscord.Str("timezone", body.Data.Choices[0].Value))
	if !set.Ephemeral() || !strings.Contains(set.Content(), "Your time zone is now Europe/Paris") || !strings.Contains(set.Content(), "Sunday 15 March (daily #74)") {
		t.Errorf("/profile timezone:Europe/Paris = %q", set.Content())
	}
	play := pb.slash(alice, "500", "daily", fakediscord.Sub("play", fakediscord.Str("level", "easy")))
	if m, _ := play.Message(); !strings.Contains(fmt.Sprint(m["embeds"]), "Daily #74") {
		t.Errorf("/daily play in Paris at 00:00 on the 15th = %v, want daily #74", m["embeds"])
	}
	inUTC := pb.slash(bob, "500", "daily", fakediscord.Sub("play", fakediscord.Str("level", "easy")))
	if m, _ := inUTC.Message(); !strings.Contains(fmt.Sprint(m["embeds"]), "Daily #73") {
		t.Errorf("/daily play in UTC at 23:00 on the 14th = %v, want daily #73", m["embeds"])
	}
}
