package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"sudokubot/commands"
	"sudokubot/internal/fakediscord"
	"sudokubot/store"
)

// forwardChannels hands the commands the bot's Channels, which exist once
// the bot does (as cli's lateChannels).
type forwardChannels struct {
	mu sync.Mutex
	c  commands.Channels
}

func (f *forwardChannels) set(c commands.Channels) {
	f.mu.Lock()
	f.c = c
	f.mu.Unlock()
}

func (f *forwardChannels) get() (commands.Channels, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.c == nil {
		return nil, errors.New("no channels yet")
	}
	return f.c, nil
}

func (f *forwardChannels) Post(ctx context.Context, ch string, r commands.Response) (string, error) {
	c, err := f.get()
	if err != nil {
		return "", err
	}
	return c.Post(ctx, ch, r)
}

func (f *forwardChannels) Edit(ctx context.Context, ch, msg string, r commands.Response) error {
	c, err := f.get()
	if err != nil {
		return err
	}
	return c.Edit(ctx, ch, msg, r)
}

func (f *forwardChannels) StartThread(ctx context.Context, ch, msg, name string) (string, error) {
	c, err := f.get()
	if err != nil {
		return "", err
	}
	return c.StartThread(ctx, ch, msg, name)
}

// messageText is a stored message's words: content and embeds, or a
// Components V2 message's text displays.
func messageText(m map[string]any) string {
	b, _ := json.Marshal(map[string]any{"content": m["content"], "embeds": m["embeds"]})
	var v struct {
		Content string `json:"content"`
		Embeds  []struct {
			Title, Description string
		} `json:"embeds"`
	}
	json.Unmarshal(b, &v)
	out := v.Content
	for _, e := range v.Embeds {
		out += "\n" + e.Title + "\n" + e.Description
	}
	walkComponents(m["components"], func(c map[string]any) {
		if t, _ := c["type"].(float64); t == 10 {
			s, _ := c["content"].(string)
			out += "\n" + s
		}
	})
	return strings.TrimPrefix(out, "\n")
}

// raceCard checks that m is a race's Components V2 card: the flag, no
// content or embeds, one container (17) with an accent colour; it says
// what is wrong, or "".
func raceCard(m map[string]any) string {
	flags, _ := m["flags"].(float64)
	cs, _ := m["components"].([]any)
	switch {
	case int(flags)&(1<<15) == 0:
		return "no IS_COMPONENTS_V2 flag"
	case m["content"] != nil && m["content"] != "":
		return "content beside V2"
	case len(cs) == 0:
		return "no components"
	}
	box, _ := cs[len(cs)-1].(map[string]any)
	if t, _ := box["type"].(float64); t != 17 {
		return fmt.Sprintf("last component of type %v, want a container (17)", box["type"])
	}
	if a, _ := box["accent_color"].(float64); a == 0 {
		return "a container without an accent colour"
	}
	return ""
}

var raceIDInButton = regexp.MustCompile(`^race:j:(\d+)$`)

// postedLobby checks that answer (to /race) is private and that the lobby
// it speaks of is the last message in channel: a V2 card with a Join
// button; it returns the lobby.
func postedLobby(t *testing.T, fake *fakediscord.Server, channel string, answer fakediscord.Call) map[string]any {
	t.Helper()
	if !answer.Ephemeral() || !strings.Contains(answer.Content(), "lobby is the message above") {
		t.Fatalf("/race answered %s; want a private note", answer.Body)
	}
	msgs := fake.Messages(channel)
	if len(msgs) == 0 {
		t.Fatalf("no lobby in channel %s", channel)
	}
	lobby := msgs[len(msgs)-1]
	if raceIDInButton.FindStringSubmatch(messageButtons(lobby)["Join"]) == nil {
		t.Fatalf("the last message in %s is no lobby: %v", channel, lobby)
	}
	if bad := raceCard(lobby); bad != "" {
		t.Errorf("the lobby: %s: %v", bad, lobby)
	}
	return lobby
}

// TestE2ERaceEightPlayers: eight players race on one bot through the fake
// Discord: a lobby, Join ×7, Start, a thread made from the lobby message,
// the scoreboard posted there and edited after every move (by several
// players at once) without a single 429 and never more than a few seconds
// behind, the results in finishing order.
func TestE2ERaceEightPlayers(t *testing.T) {
	t.Parallel()
	clock := newFakeClock(day1)
	fake := fakediscord.New(t, fakediscord.Options{Token: testToken, Guilds: []string{"500"}, EditRate: fastRate, MessageRate: fastRate})
	fwd := &forwardChannels{}
	pb := startPlayBotWith(t, fake, filepath.Join(t.TempDir(), "race.db"), clock, func(c *Config, cc *commands.Config) {
		cc.Channels = fwd
		// A batch of moves is a transaction each: eight players at once
		// under the race detector take more than the usual 2 s.
		c.SolveTimeout, cc.SolveTimeout = 20*time.Second, 20*time.Second
	})
	fwd.set(pb.bot.Channels())
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go pb.bot.RunTicks(ctx, pb.svc, 50*time.Millisecond)
	raceEight(t, fake, pb, "500", clock, pb.st.Game, nil)
}

// fastRate is Discord's per-channel buckets (5 edits, 5 messages) over a
// second instead of five, so the tests wait less: the bot reads the
// limits from the headers, as it must.
var fastRate = fakediscord.RateLimit{Limit: 5, Per: time.Second}

// raceEight drives a race of eight players in guild through fake (pb
// sends and waits for answers), on clock, reading games with gameOf;
// between, when not nil, runs after each round of moves (a restart).
func raceEight(t *testing.T, fake *fakediscord.Server, pb *playBot, guild string, clock *fakeClock, gameOf func(context.Context, int64) (store.Game, error), between func(round int)) {
	t.Helper()
	players := make([]fakediscord.User, 8)
	for i := range players {
		players[i] = fakediscord.User{ID: fmt.Sprint(21 + i), Username: fmt.Sprintf("p%d", i+1), Discriminator: "0"}
	}
	const channel = "300"
	p := pb.send(players[0], guild, fakediscord.ApplicationCommand, fakediscord.Slash("race", fakediscord.Str("level", "hard")))
	lobby := postedLobby(t, fake, channel, pb.answer(p))
	lobbyID := lobby["id"].(string)
	race := strings.TrimPrefix(messageButtons(lobby)["Join"], "race:j:")
	onLobby := func(u fakediscord.User, action string) fakediscord.Call {
		t.Helper()
		p, err := fake.Interact(fakediscord.Interaction{Type: fakediscord.MessageComponent, GuildID: guild, ChannelID: channel, User: u,
			Data: fakediscord.Button("race:" + action + ":" + race), Message: map[string]any{"id": lobbyID, "channel_id": channel}})
		if err != nil {
			t.Fatal(err)
		}
		return pb.answer(p)
	}
	for _, u := range players[1:] {
		if c := onLobby(u, "j"); c.CallbackType() != 7 {
			t.Fatalf("%s's Join: %s", u.Username, c.Body)
		}
	}
	if c := onLobby(players[0], "s"); c.CallbackType() != 7 && !c.IsOriginalEdit() {
		t.Fatalf("Start: %s", c.Body)
	}
	threads := fake.Threads(channel)
	if len(threads) != 1 || threads[0].ID != lobbyID {
		t.Fatalf("threads %+v; want one made from the lobby message %s", threads, lobbyID)
	}
	thread := threads[0].ID
	scoreboardMsg := func() map[string]any {
		for _, msg := range fake.Messages(thread) {
			if text := messageText(msg); strings.Contains(text, "· scoreboard") {
				return msg
			}
		}
		return nil
	}
	scoreboard := func() (string, string) {
		if msg := scoreboardMsg(); msg != nil {
			return msg["id"].(string), messageText(msg)
		}
		return "", ""
	}
	if id, _ := scoreboard(); id == "" {
		t.Fatalf("no scoreboard in the thread: %v", fake.Messages(thread))
	}
	if bad := raceCard(scoreboardMsg()); bad != "" {
		t.Errorf("the scoreboard: %s", bad)
	}
	// The countdown, then every player's board.
	start := day1.Add(10 * time.Second) // Start at day1, a 10 s countdown
	clock.Set(start)
	games := make([]string, len(players))
	var puzzle string
	for i, u := range players {
		p, err := fake.Interact(fakediscord.Interaction{Type: fakediscord.MessageComponent, GuildID: guild, ChannelID: thread, User: u,
			Data: fakediscord.Button("race:p:" + race)})
		if err != nil {
			t.Fatal(err)
		}
		c := pb.answer(p)
		games[i], puzzle = game(t, c)
	}
	solution := solutionOf(t, puzzle)
	began := time.Now()
	all := strings.Split(fillMoves(puzzle, solution), "\n")
	// Three rounds of moves by everyone at once, each a quarter of the
	// board more; then each player's last moves, in finishing
	// order: p8 first, p1 last, a minute apart.
	quarter := (len(all) + 3) / 4
	for round := range 3 {
		clock.Set(start.Add(time.Duration(round+1) * time.Minute))
		var wg sync.WaitGroup
		for i, u := range players {
			wg.Go(func() {
				// The board so far as one pasted grid: one store write
				// (typed moves are one each, slow under the race detector).
				pb.submitMoves(u, guild, games[i], partial(puzzle, solution, (round+1)*quarter))
			})
		}
		wg.Wait()
		t.Logf("round %d moves in at %v", round, time.Since(began))
		// The scoreboard catches up with the store within a few seconds
		// (on a loaded machine a batch may be cut by its deadline: the
		// scoreboard must show what was played, whatever it is).
		deadline := time.Now().Add(6 * time.Second)
		for {
			_, text := scoreboard()
			behind := ""
			for i, u := range players {
				g, err := gameOf(context.Background(), gameNumber(t, games[i]))
				if err != nil {
					t.Fatal(err)
				}
				filled := 0
				for j, v := range g.Entries {
					if v != 0 && puzzle[j] == '.' {
						filled++
					}
				}
				if want := fmt.Sprintf("**%s** — %d of %d cells", u.Username, filled, len(all)); !strings.Contains(text, want) {
					behind = want
				}
			}
			if behind == "" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("round %d: the scoreboard is still behind the store after 6 s:\n%s\nwant %q", round, text, behind)
			}
			time.Sleep(20 * time.Millisecond)
		}
		if between != nil {
			between(round)
		}
	}
	t.Logf("rounds done at %v", time.Since(began))
	for i := len(players) - 1; i >= 0; i-- {
		clock.Set(start.Add(time.Duration(4+len(players)-1-i) * time.Minute))
		_, c := pb.submitMoves(players[i], guild, games[i], strings.Join(left(t, gameOf, games[i], puzzle, solution), "\n"))
		if !strings.Contains(text(c), "You finished the race") {
			t.Fatalf("%s's last moves: %s", players[i].Username, text(c))
		}
	}
	// The results, once, in finishing order; the scoreboard says it is over.
	var results string
	eventually(t, "the results posted in the thread", func() bool {
		for _, msg := range fake.Messages(thread) {
			if text := messageText(msg); strings.Contains(text, " · results\n") {
				if bad := raceCard(msg); bad != "" {
					t.Errorf("the results: %s", bad)
				}
				results = text
				return true
			}
		}
		return false
	})
	last := -1
	for k := range players {
		i := len(players) - 1 - k
		line := fmt.Sprintf("%d. **%s** %d:00", k+1, players[i].Username, 4+k)
		at := strings.Index(results, line)
		if at <= last {
			t.Errorf("results:\n%s\nwant %q after the lines before it", results, line)
		}
		last = at
	}
	t.Logf("results at %v", time.Since(began))
	eventually(t, "the scoreboard over", func() bool {
		_, text := scoreboard()
		return strings.Contains(text, "Over.") && strings.Contains(text, "1. **p8** — finished in 4:00")
	})
	t.Logf("scoreboard over at %v", time.Since(began))
	if msg := scoreboardMsg(); raceCard(msg) != "" || strings.Contains(fmt.Sprint(msg["components"]), "race:p:") {
		t.Errorf("the scoreboard over: %s, or buttons left: %v", raceCard(msg), msg["components"])
	}
	n := 0
	for _, msg := range fake.Messages(thread) {
		if strings.Contains(messageText(msg), " · results\n") {
			n++
		}
	}
	if rl := fake.RateLimited(); rl.Limited != 0 || n != 1 {
		t.Errorf("%d calls answered 429 (%v), %d results posts; want none and one", rl.Limited, rl.ByRoute, n)
	}
	if refused := fake.Refused(); len(refused) > 0 {
		t.Errorf("the fake refused %d calls, the first: %s %s %s", len(refused), refused[0].Method, refused[0].Path, refused[0].Body)
	}
}

func gameNumber(t *testing.T, id string) int64 {
	t.Helper()
	var n int64
	if _, err := fmt.Sscan(id, &n); err != nil {
		t.Fatalf("game id %q: %v", id, err)
	}
	return n
}

// left is the moves that fill what game id still lacks.
func left(t *testing.T, gameOf func(context.Context, int64) (store.Game, error), id, puzzle, solution string) []string {
	t.Helper()
	g, err := gameOf(context.Background(), gameNumber(t, id))
	if err != nil {
		t.Fatal(err)
	}
	var moves []string
	for i := range puzzle {
		if puzzle[i] == '.' && g.Entries[i] == 0 {
			moves = append(moves, fmt.Sprintf("%c%d %c", 'A'+i/9, i%9+1, solution[i]))
		}
	}
	return moves
}

// partial is puzzle with its first n blanks filled from solution, as a
// one-line grid to paste.
func partial(puzzle, solution string, n int) string {
	b := []byte(puzzle)
	for i := range b {
		if b[i] == '.' && n > 0 {
			b[i] = solution[i]
			n--
		}
	}
	return string(b)
}

// startRaceProcess starts a process serving shards with the race
// feature (its Channels, its ticks) on the PostgreSQL at url, on clock.
func startRaceProcess(t *testing.T, fake *fakediscord.Server, url string, shards ShardSet, clock *fakeClock) *process {
	t.Helper()
	st, err := store.OpenPostgres(context.Background(), url)
	if err != nil {
		t.Fatalf("OpenPostgres: %v", err)
	}
	fwd := &forwardChannels{}
	svc := commands.New(commands.Config{SolveTimeout: 20 * time.Second, Settings: st, Games: st, Puzzles: testPuzzles{}, Channels: fwd})
	h := &guildCounter{Handler: svc, guilds: map[string]int{}}
	cfg := Config{Token: testToken, APIBase: fake.URL(), SolveTimeout: 20 * time.Second, DeferAfter: 1500 * time.Millisecond,
		ShutdownWait: 3 * time.Second, RateBurst: 1 << 20, RatePerMinute: 1 << 20}
	cfg.Shards = shards
	logs := &syncBuffer{}
	b, err := New(cfg, h, log.New(logs, "", 0))
	if err != nil {
		t.Fatal(err)
	}
	fwd.set(b.Channels())
	b.identifyWait = func(context.Context, time.Duration) error { return nil }
	b.now = clock.Now
	b.SetDatabase(st)
	ctx, cancel := context.WithCancel(context.Background())
	p := &process{st: st, svc: svc, h: h, bot: b, logs: logs, cancel: cancel, done: make(chan error, 1)}
	go func() { p.done <- b.Run(ctx) }()
	go b.RunTicks(ctx, svc, 50*time.Millisecond)
	if !fake.WaitShards(waitLong, shards.IDs...) {
		t.Fatalf("shards %s never connected\nlogs:\n%s", shards, logs)
	}
	eventually(t, "shards "+shards.String()+" ready", func() bool { return b.readiness(context.Background()) == nil })
	t.Cleanup(func() {
		p.stop(t)
		if t.Failed() {
			t.Logf("log of shards %s:\n%s", shards, logs)
		}
	})
	return p
}

// TestE2ERaceTwoProcessesFourShards: the race of eight on two processes
// of two shards each, on one PostgreSQL: both tick, the process of the
// race's guild is restarted after the second round of moves, and still
// the scoreboard keeps up, nothing trips a limit, and the results are
// posted once, right.
func TestE2ERaceTwoProcessesFourShards(t *testing.T) {
	url := pgTestURL(t)
	const n = 4
	var guilds []string
	for shard := range n {
		guilds = append(guilds, fakediscord.GuildOnShard(shard, n, 0))
	}
	fake := fakediscord.New(t, fakediscord.Options{Token: testToken, Guilds: guilds, EditRate: fastRate, MessageRate: fastRate})
	fake.SetShards(n, 2)
	clock := newFakeClock(day1)
	a := startRaceProcess(t, fake, url, ShardSet{IDs: []int{0, 1}, Count: n}, clock)
	startRaceProcess(t, fake, url, ShardSet{IDs: []int{2, 3}, Count: n}, clock)
	reader, err := store.OpenPostgres(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	pb := &playBot{tb: t, fake: fake, logs: a.logs}
	raceEight(t, fake, pb, guilds[0], clock, reader.Game, func(round int) {
		if round != 1 {
			return
		}
		a.stop(t) // a restart mid-race: a new process takes shards 0 and 1
		a = startRaceProcess(t, fake, url, ShardSet{IDs: []int{0, 1}, Count: n}, clock)
		pb.logs = a.logs
		// A real restart outlasts the channel's rate-limit window (the
		// new process can't know what the old one used of it); here it
		// takes milliseconds, so let the window pass.
		time.Sleep(fastRate.Per)
		if rl := fake.RateLimited(); rl.Limited != 0 {
			t.Errorf("%d calls answered 429 before the restart", rl.Limited)
		}
	})
}

// startRaceBot is a play bot with races: the bot's Channels handed to
// the commands, ticking every 50 ms.
func startRaceBot(t *testing.T, fake *fakediscord.Server, clock *fakeClock) *playBot {
	t.Helper()
	fwd := &forwardChannels{}
	pb := startPlayBotWith(t, fake, filepath.Join(t.TempDir(), "race.db"), clock, func(c *Config, cc *commands.Config) {
		cc.Channels = fwd
	})
	fwd.set(pb.bot.Channels())
	ctx, stop := context.WithCancel(context.Background())
	t.Cleanup(stop)
	go pb.bot.RunTicks(ctx, pb.svc, 50*time.Millisecond)
	return pb
}

// TestE2EDuelAndCoop: a duel (only the named member may join) and a co-op
// game of three in a thread (each value credited to whoever placed it),
// end to end.
func TestE2EDuelAndCoop(t *testing.T) {
	t.Parallel()
	clock := newFakeClock(day1)
	fake := fakediscord.New(t, fakediscord.Options{Token: testToken, Guilds: []string{"500"}, EditRate: fastRate, MessageRate: fastRate})
	pb := startRaceBot(t, fake, clock)
	carol := fakediscord.User{ID: "13", Username: "carol", Discriminator: "0"}

	t.Run("duel", func(t *testing.T) {
		p := pb.send(alice, "500", fakediscord.ApplicationCommand, fakediscord.Slash("race", fakediscord.Str("level", "hard"),
			fakediscord.Option{Name: "vs", Type: 6, Value: bob.ID}))
		lobby := postedLobby(t, fake, "300", pb.answer(p))
		lobbyID := lobby["id"].(string)
		// The duel's card names bob as a mention, which must not ping.
		var lobbyCall fakediscord.Call
		for _, c := range fake.Calls() {
			if c.IsChannelMessage() && strings.Contains(string(c.Body), `"race:j:`) {
				lobbyCall = c
			}
		}
		var sent struct {
			AllowedMentions *struct{ Parse []string } `json:"allowed_mentions"`
		}
		if lobbyCall.Decode(&sent) != nil || sent.AllowedMentions == nil || len(sent.AllowedMentions.Parse) != 0 ||
			!strings.Contains(messageText(lobby), "<@12>") {
			t.Errorf("the duel's lobby: want a V2 card naming <@12>, allowed mentions none: %s", lobbyCall.Body)
		}
		race := strings.TrimPrefix(messageButtons(lobby)["Join"], "race:j:")
		press := func(u fakediscord.User, action, channel string) fakediscord.Call {
			t.Helper()
			p, err := fake.Interact(fakediscord.Interaction{Type: fakediscord.MessageComponent, GuildID: "500", ChannelID: channel, User: u,
				Data: fakediscord.Button("race:" + action + ":" + race), Message: map[string]any{"id": lobbyID, "channel_id": "300"}})
			if err != nil {
				t.Fatal(err)
			}
			return pb.answer(p)
		}
		if c := press(carol, "j", "300"); !c.Ephemeral() || !strings.Contains(c.Content(), "This is a duel between alice and <@12>") {
			t.Errorf("carol's Join: %s", c.Body)
		}
		if c := press(carol, "s", "300"); !c.Ephemeral() || !strings.Contains(c.Content(), "This is a duel between alice and <@12>") {
			t.Errorf("carol's Start: %s", c.Body)
		}
		if c := press(alice, "s", "300"); !strings.Contains(c.Content(), "hasn't joined yet") {
			t.Errorf("Start before bob joined: %s", c.Body)
		}
		press(bob, "j", "300")
		press(alice, "s", "300")
		clock.Set(day1.Add(10 * time.Second))
		var ids [2]string
		var puzzle string
		for i, u := range []fakediscord.User{alice, bob} {
			ids[i], puzzle = game(t, press(u, "p", lobbyID))
		}
		solution := solutionOf(t, puzzle)
		moves := strings.Split(fillMoves(puzzle, solution), "\n")
		half := len(moves) / 2
		for k, i := range []int{1, 0} { // bob first
			u := []fakediscord.User{alice, bob}[i]
			clock.Set(day1.Add(time.Duration(2+k) * time.Minute))
			pb.submitMoves(u, "500", ids[i], strings.Join(moves[:half], "\n"))
			clock.Set(day1.Add(time.Duration(4+k)*time.Minute + 10*time.Second))
			pb.submitMoves(u, "500", ids[i], strings.Join(moves[half:], "\n"))
		}
		eventually(t, "the duel's results", func() bool {
			for _, m := range fake.Messages(lobbyID) {
				text := messageText(m)
				if strings.HasPrefix(text, "## Duel · Hard 9x9 · results\n") && strings.Contains(text, "1. **bob** 4:00") && strings.Contains(text, "2. **alice** 5:00") {
					return true
				}
			}
			return false
		})
	})

	t.Run("co-op of three", func(t *testing.T) {
		c := pb.slash(alice, "500", "play", fakediscord.Str("level", "medium"), fakediscord.Bool("together", true))
		if !c.Ephemeral() || !strings.Contains(c.Content(), "Your co-op board is in the thread") {
			t.Fatalf("/play together: %s", c.Body)
		}
		threads := fake.Threads("300")
		thread := threads[len(threads)-1].ID
		var boardID, id, puzzle string
		for _, m := range fake.Messages(thread) {
			if strings.Contains(messageText(m), "Co-op · Medium 9x9") {
				boardID = m["id"].(string)
				b, _ := json.Marshal(m["components"])
				if mm := regexp.MustCompile(`game:m:(\d+)`).FindStringSubmatch(string(b)); mm != nil {
					id = mm[1]
				}
				if mm := puzzleLine.FindStringSubmatch(messageText(m)); mm != nil {
					puzzle = mm[1]
				}
			}
		}
		if boardID == "" || id == "" || puzzle == "" {
			t.Fatalf("no co-op board in the thread: %v", fake.Messages(thread))
		}
		moves := strings.Split(fillMoves(puzzle, solutionOf(t, puzzle)), "\n")
		submit := func(u fakediscord.User, ms []string) fakediscord.Call {
			t.Helper()
			p, err := fake.Interact(fakediscord.Interaction{Type: fakediscord.ModalSubmit, GuildID: "500", ChannelID: thread, User: u,
				Data:    fakediscord.Modal("gmove:"+id, map[string]string{"moves": strings.Join(ms, "\n")}),
				Message: map[string]any{"id": boardID, "channel_id": thread}})
			if err != nil {
				t.Fatal(err)
			}
			return pb.answer(p)
		}
		third := len(moves) / 3
		clock.Set(day1.Add(20 * time.Minute))
		for i, u := range []fakediscord.User{alice, bob, carol} {
			end := (i + 1) * third
			if i == 2 {
				end = len(moves)
			}
			c := submit(u, moves[i*third:end])
			if c.CallbackType() != 7 || c.Ephemeral() || !strings.HasPrefix(c.Content(), "**"+u.Username+"**") {
				t.Errorf("%s's moves: type %d, %q", u.Username, c.CallbackType(), c.Content())
			}
			if i == 2 {
				want := fmt.Sprintf("Who placed what (cells): **carol** %d, **alice** %d, **bob** %d.", len(moves)-2*third, third, third)
				if !strings.Contains(c.Content(), "Solved together") || !strings.Contains(c.Content(), want) {
					t.Errorf("the finish: %q\nwant %q", c.Content(), want)
				}
			}
		}
	})

	t.Run("lobby called off", func(t *testing.T) {
		// A lobby nobody starts: the bot's ticks, 31 minutes on, edit it
		// to say so (still Components V2, as Discord requires) and take
		// its buttons.
		p := pb.send(alice, "500", fakediscord.ApplicationCommand, fakediscord.Slash("race", fakediscord.Str("level", "easy")))
		lobbyID := postedLobby(t, fake, "300", pb.answer(p))["id"].(string)
		clock.Set(clock.Now().Add(31 * time.Minute))
		var lobby map[string]any
		eventually(t, "the lobby called off", func() bool {
			for _, m := range fake.Messages("300") {
				if m["id"] == lobbyID && strings.Contains(messageText(m), "Nobody started this race within 30 minutes") {
					lobby = m
					return true
				}
			}
			return false
		})
		if bad := raceCard(lobby); bad != "" || len(messageButtons(lobby)) != 0 {
			t.Errorf("the lobby called off: %s, buttons %v; want a V2 card without buttons", bad, messageButtons(lobby))
		}
		if c := pb.slash(carol, "500", "race", fakediscord.Str("level", "easy")); !c.Ephemeral() {
			t.Errorf("/race after: %s", c.Body)
		}
	})
	if rl := fake.RateLimited(); rl.Limited != 0 {
		t.Errorf("%d calls answered 429", rl.Limited)
	}
	if refused := fake.Refused(); len(refused) > 0 {
		t.Errorf("the fake refused %d calls, the first: %s %s %s", len(refused), refused[0].Method, refused[0].Path, refused[0].Body)
	}
}
