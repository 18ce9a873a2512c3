package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"sudokubot/commands"
	"sudokubot/internal/fakediscord"
)

// forwardChannels hands the commands the bot's Channels, which exist once
// the bot does (as cli's lateChannels).
type forwardChannels struct {
	mu sync.Mutex
	c  commands.Channels
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

// messageText is a stored message's words: content and embeds.
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
	return out
}

var raceIDInButton = regexp.MustCompile(`^race:j:(\d+)$`)

// TestE2ERaceEightPlayers: eight players race on one bot through the fake
// Discord: a lobby, Join ×7, Start, a thread made from the lobby message,
// the scoreboard posted there and edited after every move (by several
// players at once) without a single 429 and never more than a few seconds
// behind, the results in finishing order.
func TestE2ERaceEightPlayers(t *testing.T) {
	t.Parallel()
	clock := newFakeClock(day1)
	// Discord's per-channel buckets (5 edits, 5 messages) over a second
	// instead of five, so the test waits less: the bot reads the limits
	// from the headers, as it must.
	second := fakediscord.RateLimit{Limit: 5, Per: time.Second}
	fake := fakediscord.New(t, fakediscord.Options{Token: testToken, Guilds: []string{"500"}, EditRate: second, MessageRate: second})
	fwd := &forwardChannels{}
	pb := startPlayBotWith(t, fake, filepath.Join(t.TempDir(), "race.db"), clock, func(c *Config, cc *commands.Config) {
		cc.Channels = fwd
		// A batch of moves is a transaction each: eight players at once
		// under the race detector take more than the usual 2 s.
		c.SolveTimeout, cc.SolveTimeout = 20*time.Second, 20*time.Second
	})
	fwd.mu.Lock()
	fwd.c = pb.bot.Channels()
	fwd.mu.Unlock()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go pb.bot.RunTicks(ctx, pb.svc, 50*time.Millisecond)

	players := make([]fakediscord.User, 8)
	for i := range players {
		players[i] = fakediscord.User{ID: fmt.Sprint(21 + i), Username: fmt.Sprintf("p%d", i+1), Discriminator: "0"}
	}
	const channel = "300"
	p := pb.send(players[0], "500", fakediscord.ApplicationCommand, fakediscord.Slash("race", fakediscord.Str("level", "hard")))
	lobbyCall := pb.answer(p)
	lobby, ok := fake.Original(p.ID)
	if !ok || lobbyCall.Ephemeral() {
		t.Fatalf("no public lobby: %s", lobbyCall.Body)
	}
	lobbyID := lobby["id"].(string)
	m := raceIDInButton.FindStringSubmatch(buttons(lobbyCall)["Join"])
	if m == nil {
		t.Fatalf("lobby buttons %v", buttons(lobbyCall))
	}
	race := m[1]
	onLobby := func(u fakediscord.User, action string) fakediscord.Call {
		t.Helper()
		p, err := fake.Interact(fakediscord.Interaction{Type: fakediscord.MessageComponent, GuildID: "500", ChannelID: channel, User: u,
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
	scoreboard := func() (string, string) {
		for _, msg := range fake.Messages(thread) {
			if text := messageText(msg); strings.Contains(text, "· scoreboard") {
				return msg["id"].(string), text
			}
		}
		return "", ""
	}
	if id, _ := scoreboard(); id == "" {
		t.Fatalf("no scoreboard in the thread: %v", fake.Messages(thread))
	}
	// The countdown, then every player's board.
	start := day1.Add(10 * time.Second) // Start at day1, a 10 s countdown
	clock.Set(start)
	games := make([]string, len(players))
	var puzzle string
	for i, u := range players {
		p, err := fake.Interact(fakediscord.Interaction{Type: fakediscord.MessageComponent, GuildID: "500", ChannelID: thread, User: u,
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
				pb.submitMoves(u, "500", games[i], partial(puzzle, solution, (round+1)*quarter))
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
				g, err := pb.st.Game(context.Background(), gameNumber(t, games[i]))
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
	}
	t.Logf("rounds done at %v", time.Since(began))
	for i := len(players) - 1; i >= 0; i-- {
		clock.Set(start.Add(time.Duration(4+len(players)-1-i) * time.Minute))
		_, c := pb.submitMoves(players[i], "500", games[i], strings.Join(left(t, pb, games[i], puzzle, solution), "\n"))
		if !strings.Contains(text(c), "You finished the race") {
			t.Fatalf("%s's last moves: %s", players[i].Username, text(c))
		}
	}
	// The results, once, in finishing order; the scoreboard says it is over.
	var results string
	eventually(t, "the results posted in the thread", func() bool {
		for _, msg := range fake.Messages(thread) {
			if text := messageText(msg); strings.HasPrefix(text, "**Results**") {
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
	n := 0
	for _, msg := range fake.Messages(thread) {
		if strings.HasPrefix(messageText(msg), "**Results**") {
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
func left(t *testing.T, pb *playBot, id, puzzle, solution string) []string {
	t.Helper()
	g, err := pb.st.Game(context.Background(), gameNumber(t, id))
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
