package activity

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"sudokubot/commands"
	"sudokubot/internal/fakediscord"
	"sudokubot/sudoku"
)

// localToken signs who in as local mode does (any room may be named).
func (e *env) localToken(who commands.Player) string {
	tok, _ := e.srv.sessions.sign(Session{Player: who, Expires: e.clock.now().Add(DefaultSessionTTL), Local: true})
	return tok
}

// join joins room in mode as token and returns the answer (with the new
// token).
func (e *env) join(t testing.TB, token, room, mode string) answer {
	t.Helper()
	return e.do(t, "POST", "/api/room", token, fmt.Sprintf(`{"room":%q,"mode":%q,"size":4,"level":"easy"}`, room, mode))
}

// TestRoomCoopLive: two players of a room share one co-op board; each
// one's move reaches the other's page at once, saying who made it.
func TestRoomCoopLive(t *testing.T) {
	e := newLiveEnv(t, Config{})
	a := e.join(t, e.localToken(ada), "r1", "coop")
	b := e.join(t, e.localToken(bob), "r1", "coop")
	if a.status != 200 || b.status != 200 {
		t.Fatalf("join: %d %s / %d %s", a.status, a.Error, b.status, b.Error)
	}
	if a.Game.ID != b.Game.ID || a.Game.Together == nil || a.Game.Together.Mode != "coop" || a.Token == "" {
		t.Fatalf("joined games %d and %d (%+v), token %q: want one co-op game and a new token", a.Game.ID, b.Game.ID, a.Game.Together, a.Token)
	}
	g := a.Game
	adaSock := dial(t, e.url, helloFor(a.Token, g.ID))
	bobSock := dial(t, e.url, helloFor(b.Token, g.ID))
	adaSock.next()
	bobSock.next()
	free := emptyCells(g)
	if mv := e.do(t, "POST", fmt.Sprintf("/api/games/%d/move", g.ID), a.Token, fmt.Sprintf(`{"cell":%d,"kind":"digit","value":1}`, free[0])); mv.status != 200 {
		t.Fatalf("Ada's move: %d %s", mv.status, mv.Error)
	}
	m := bobSock.until("Ada's move", func(m liveMsg) bool { return m.Game.Entries[free[0]] == 1 })
	if m.By != ada.UserID || m.ByName != ada.UserName || fmt.Sprint(m.Cells) != fmt.Sprint([]int{free[0]}) {
		t.Errorf("Bob saw the move by %q (%q) on %v, want Ada's on [%d]", m.By, m.ByName, m.Cells, free[0])
	}
	if mv := e.do(t, "POST", fmt.Sprintf("/api/games/%d/move", g.ID), b.Token, fmt.Sprintf(`{"cell":%d,"kind":"digit","value":2}`, free[1])); mv.status != 200 {
		t.Fatalf("Bob's move: %d %s", mv.status, mv.Error)
	}
	if m := adaSock.until("Bob's move", func(m liveMsg) bool { return m.Game.Entries[free[1]] == 2 }); m.ByName != bob.UserName {
		t.Errorf("Ada saw the move by %q, want Bob", m.ByName)
	}
	// A page opened again (the opener's current game, or the room joined
	// again) lists the last moves with their movers, newest first, from
	// the store; the views after each move leave them out.
	want := fmt.Sprintf("[{By:%s Name:Bob Cells:[%d] Values:[2]} {By:%s Name:Ada Cells:[%d] Values:[1]}]", bob.UserID, free[1], ada.UserID, free[0])
	for _, got := range []answer{e.do(t, "GET", "/api/game", a.Token, ""), e.join(t, b.Token, "r1", "coop")} {
		if got.Game.ID != g.ID || got.Game.Together == nil || fmt.Sprintf("%+v", got.Game.Together.Recent) != want {
			t.Errorf("game %d (want %d), together %+v; want the last moves %s", got.Game.ID, g.ID, got.Game.Together, want)
		}
	}
	if got := e.do(t, "GET", fmt.Sprintf("/api/games/%d", g.ID), b.Token, ""); got.Game.Together == nil || got.Game.Together.Recent != nil {
		t.Errorf("a view of the co-op game not opening a page: together %+v, want no last moves", got.Game.Together)
	}
	// Without the room in the session (the old token), the co-op board is
	// someone else's.
	if mv := e.do(t, "POST", fmt.Sprintf("/api/games/%d/move", g.ID), e.localToken(bob), fmt.Sprintf(`{"cell":%d,"kind":"clear"}`, free[1])); mv.status != 403 {
		t.Errorf("a move without the room: %d %s, want 403", mv.status, mv.Error)
	}
	cy := commands.Player{UserID: "300", UserName: "Cy", GuildID: "g1"}
	s := dial(t, e.url, helloFor(e.localToken(cy), g.ID))
	if code, _ := s.closed(); code != closeForbidden {
		t.Errorf("a socket of someone not in the room closed with %d, want %d", code, closeForbidden)
	}
}

// TestRoomRaceLive: two players race the same puzzle on their own
// boards; each one's page sees the other's progress (cells filled, wrong
// entries), never their digits.
func TestRoomRaceLive(t *testing.T) {
	e := newLiveEnv(t, Config{})
	a := e.join(t, e.localToken(ada), "r2", "race")
	b := e.join(t, e.localToken(bob), "r2", "race")
	if a.status != 200 || b.status != 200 {
		t.Fatalf("join: %d %s / %d %s", a.status, a.Error, b.status, b.Error)
	}
	if a.Game.ID == b.Game.ID || a.Game.Together == nil || b.Game.Together == nil || a.Game.Together.Race != b.Game.Together.Race {
		t.Fatalf("race games %d and %d (%+v, %+v): want two boards of one race", a.Game.ID, b.Game.ID, a.Game.Together, b.Game.Together)
	}
	race := a.Game.Together.Race
	bobSock := dial(t, e.url, map[string]any{"type": "hello", "token": b.Token, "game": b.Game.ID, "race": race})
	free := emptyCells(a.Game)
	if mv := e.do(t, "POST", fmt.Sprintf("/api/games/%d/move", a.Game.ID), a.Token, fmt.Sprintf(`{"cell":%d,"kind":"digit","value":3}`, free[0])); mv.status != 200 {
		t.Fatalf("Ada's move: %d %s", mv.status, mv.Error)
	}
	var raw []byte
	for range 20 {
		_, data, err := bobSock.conn.Read(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			Type string            `json:"type"`
			Race commands.RaceView `json:"race"`
		}
		json.Unmarshal(data, &m)
		if m.Type != "race" {
			continue
		}
		for _, p := range m.Race.Players {
			if p.UserID == ada.UserID && p.Filled == 1 {
				raw = data
			}
		}
		if raw != nil {
			break
		}
	}
	if raw == nil {
		t.Fatal("Bob never saw Ada's progress")
	}
	if strings.Contains(string(raw), "entries") || strings.Contains(string(raw), "givens") {
		t.Errorf("the standings show a board: %s", raw)
	}
	// A socket for a race one is not in is refused.
	cy := commands.Player{UserID: "300", UserName: "Cy"}
	cg, _ := e.start(t, cy)
	s := dial(t, e.url, map[string]any{"type": "hello", "token": e.localToken(cy), "game": cg.ID, "race": race})
	if code, reason := s.closed(); code != closeForbidden || !strings.Contains(reason, "race") {
		t.Errorf("a socket on a race one isn't in closed with %d %q, want %d", code, reason, closeForbidden)
	}
}

// TestRoomMembership: a Discord player joins an instance's board only
// when Discord lists them in it; a bad room and a Discord failure are
// refused clearly and start nothing.
func TestRoomMembership(t *testing.T) {
	fake := fakediscord.New(t, fakediscord.Options{Token: "bot-token", Activities: true})
	fake.SetGuildActivityInstance("i-1", "g9", "c9", bob.UserID)
	e := newEnv(t, Config{Instances: DiscordInstances{AppID: "100", BotToken: "bot-token", APIBase: fake.URL()}})
	// Signed in through Discord: no server known yet.
	bobInDiscord := commands.Player{UserID: bob.UserID, UserName: bob.UserName}
	a := e.join(t, e.token(bobInDiscord), "i-1", "coop")
	if a.status != 200 {
		t.Fatalf("join: %d %s", a.status, a.Error)
	}
	if g, err := e.st.Game(context.Background(), a.Game.ID); err != nil || g.GuildID != "g9" || g.ChannelID != "c9" {
		t.Errorf("the co-op game of a player signed in through Discord: guild %q channel %q, %v; want the instance's g9 and c9", g.GuildID, g.ChannelID, err)
	}
	if sess, err := e.srv.sessions.verify(a.Token, e.clock.now()); err != nil || sess.Player.GuildID != "g9" || sess.Player.Room != "i-1" {
		t.Errorf("the room's session = %+v, %v; want the instance's server and the room", sess.Player, err)
	}
	cases := []struct {
		name   string
		who    commands.Player
		room   string
		status int
		says   string
	}{
		{"in the instance", bob, "i-1", 200, ""},
		{"not in it", ada, "i-1", 403, "not in this Activity"},
		{"no such instance", bob, "i-2", 403, "not in this Activity"},
		{"a bad room", bob, "i 1/../x", 400, "isn't a room"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := e.join(t, e.token(c.who), c.room, "coop")
			if a.status != c.status || !strings.Contains(a.Error, c.says) {
				t.Errorf("join = %d %q, want %d saying %q", a.status, a.Error, c.status, c.says)
			}
		})
	}
	var logged strings.Builder
	broken := newEnv(t, Config{Instances: DiscordInstances{AppID: "100", BotToken: "wrong-bot-token", APIBase: fake.URL()},
		Logf: func(format string, args ...any) { fmt.Fprintf(&logged, format+"\n", args...) }})
	if a := broken.join(t, broken.token(bob), "i-1", "coop"); a.status != 503 || !strings.Contains(a.Error, "couldn't ask Discord") {
		t.Errorf("join when Discord refuses the bot = %d %q, want 503", a.status, a.Error)
	}
	if !strings.Contains(logged.String(), "401") || strings.Contains(logged.String(), "wrong-bot-token") {
		t.Errorf("the log of Discord's refusal = %q: want its status, never the token", logged.String())
	}
	none := newEnv(t, Config{})
	if a := none.join(t, none.token(bob), "i-1", "coop"); a.status != 403 || !strings.Contains(a.Error, "isn't switched on") {
		t.Errorf("join without Discord's instances = %d %q, want 403", a.status, a.Error)
	}
}

// TestRoomSocketRechecks: a room's socket asks Discord again: a player
// who left the Activity is refused, with a sentence.
func TestRoomSocketRechecks(t *testing.T) {
	fake := fakediscord.New(t, fakediscord.Options{Token: "bot-token", Activities: true})
	fake.SetActivityInstance("i-1", "c1", ada.UserID, bob.UserID)
	e := newLiveEnv(t, Config{Instances: DiscordInstances{AppID: "100", BotToken: "bot-token", APIBase: fake.URL()}})
	a := e.join(t, e.token(bob), "i-1", "coop")
	if a.status != 200 {
		t.Fatalf("join: %d %s", a.status, a.Error)
	}
	if m := dial(t, e.url, helloFor(a.Token, a.Game.ID)).next(); m.Game.ID != a.Game.ID {
		t.Fatalf("first message = %+v, want the co-op game", m)
	}
	fake.SetActivityInstance("i-1", "c1", ada.UserID) // Bob left
	s := dial(t, e.url, helloFor(a.Token, a.Game.ID))
	if code, reason := s.closed(); code != closeForbidden || !strings.Contains(reason, "not in this Activity") {
		t.Errorf("Bob's socket after he left closed with %d %q, want %d", code, reason, closeForbidden)
	}
}

// TestLocalPlayer: local mode's ?as= names a player of one's own, within
// limits.
func TestLocalPlayer(t *testing.T) {
	for _, c := range []struct {
		as, id, name string
		ok           bool
	}{
		{"", ada.UserID, ada.UserName, true},
		{"Bo", ada.UserID + "-bo", "Bo", true},
		{"Jo Ann", ada.UserID + "-jo_ann", "Jo Ann", true},
		{"Zoë", ada.UserID + "-zoë", "Zoë", true},
		{strings.Repeat("x", 33), "", "", false},
		{"<script>", "", "", false},
		{"a/b", "", "", false},
	} {
		who, err := localPlayer(ada, c.as)
		if (err == nil) != c.ok || (c.ok && (who.UserID != c.id || who.UserName != c.name)) {
			t.Errorf("localPlayer(%q) = %+v, %v; want id %q name %q ok %v", c.as, who, err, c.id, c.name, c.ok)
		}
	}
}

// signInAt signs in through Discord with body on srv, returning the
// status, the session (when one was issued) and the refusal.
func signInAt(t testing.TB, e *env, srv *Server, body string) (int, Session, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest("POST", "/api/session", strings.NewReader(body)))
	var got struct {
		Token string `json:"token"`
		Error string `json:"error"`
	}
	json.Unmarshal(rec.Body.Bytes(), &got)
	if got.Token == "" {
		return rec.Code, Session{}, got.Error
	}
	sess, err := srv.sessions.verify(got.Token, e.clock.now())
	if err != nil {
		t.Fatalf("sign-in %s: the token it issued: %v", body, err)
	}
	return rec.Code, sess, got.Error
}

// TestSignInTakesInstanceServer: a player signed in through Discord takes
// the server of the instance the page names, as Discord tells it, only
// when Discord lists them in it; the page's guild is never believed.
func TestSignInTakesInstanceServer(t *testing.T) {
	fake := fakediscord.New(t, fakediscord.Options{Token: "bot-token", Activities: true})
	fake.SetGuildActivityInstance("i-1", "g9", "c9", bob.UserID)
	fake.SetActivityInstance("dm-1", "c5", bob.UserID)
	e := newEnv(t, Config{})
	inDiscord := func(p commands.Player) commands.Player {
		return commands.Player{UserID: p.UserID, UserName: p.UserName}
	}
	srv, err := New(Config{Boards: e.svc, Now: e.clock.now, SignIn: fakeSignIn{"bob": inDiscord(bob), "ada": inDiscord(ada)},
		Instances: DiscordInstances{AppID: "100", BotToken: "bot-token", APIBase: fake.URL()}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, body     string
		status         int
		guild, channel string
		says           string
	}{
		{"in a server's instance", `{"code":"bob","instance":"i-1","guild":"g9","channel":"c9"}`, 200, "g9", "c9", ""},
		{"a forged guild", `{"code":"bob","instance":"i-1","guild":"g1","channel":"c1"}`, 200, "g9", "c9", ""},
		{"a DM's instance said to be a server's", `{"code":"bob","instance":"dm-1","guild":"g1"}`, 200, "", "c5", ""},
		{"a DM (no guild)", `{"code":"bob","instance":"dm-1","channel":"c5"}`, 200, "", "", ""},
		{"no instance", `{"code":"bob"}`, 200, "", "", ""},
		{"not in the instance", `{"code":"ada","instance":"i-1","guild":"g9"}`, 403, "", "", "not in this Activity"},
		{"no such instance", `{"code":"bob","instance":"i-2","guild":"g9"}`, 403, "", "", "not in this Activity"},
		{"a bad instance", `{"code":"bob","instance":"i 1/..","guild":"g9"}`, 400, "", "", "isn't an Activity"},
	} {
		t.Run(c.name, func(t *testing.T) {
			status, sess, says := signInAt(t, e, srv, c.body)
			if status != c.status || !strings.Contains(says, c.says) || sess.Player.GuildID != c.guild || sess.Player.ChannelID != c.channel {
				t.Errorf("sign-in %s = %d %q, session in guild %q channel %q; want %d %q, guild %q channel %q",
					c.body, status, says, sess.Player.GuildID, sess.Player.ChannelID, c.status, c.says, c.guild, c.channel)
			}
			if c.status != 200 && sess.Player.UserID != "" {
				t.Errorf("a refused sign-in issued a session: %+v", sess)
			}
		})
	}
	var logged strings.Builder
	broken, err := New(Config{Boards: e.svc, Now: e.clock.now, SignIn: fakeSignIn{"bob": inDiscord(bob)},
		Instances: DiscordInstances{AppID: "100", BotToken: "wrong-bot-token", APIBase: fake.URL()},
		Logf:      func(format string, args ...any) { fmt.Fprintf(&logged, format+"\n", args...) }})
	if err != nil {
		t.Fatal(err)
	}
	if status, sess, says := signInAt(t, e, broken, `{"code":"bob","instance":"i-1","guild":"g9"}`); status != 503 || sess.Player.UserID != "" || !strings.Contains(says, "couldn't ask Discord") {
		t.Errorf("sign-in when Discord refuses the bot = %d %q %+v, want 503 and no session", status, says, sess)
	}
	if strings.Contains(logged.String(), "wrong-bot-token") || !strings.Contains(logged.String(), "401") {
		t.Errorf("the log of Discord's refusal = %q: want its status, never the token", logged.String())
	}
}

// TestSignInDailyOnServerBoard: a daily finished after a Discord sign-in
// in a server's instance (no room joined) is on that server's /daily
// leaderboard, once.
func TestSignInDailyOnServerBoard(t *testing.T) {
	fake := fakediscord.New(t, fakediscord.Options{Token: "bot-token", Activities: true})
	fake.SetGuildActivityInstance("i-1", "g9", "c9", bob.UserID)
	e := newEnv(t, Config{})
	srv, err := New(Config{Boards: e.svc, Now: e.clock.now, SignIn: fakeSignIn{"bob": {UserID: bob.UserID, UserName: bob.UserName}},
		Instances: DiscordInstances{AppID: "100", BotToken: "bot-token", APIBase: fake.URL()}})
	if err != nil {
		t.Fatal(err)
	}
	e.srv = srv
	_, sess, says := signInAt(t, e, srv, `{"code":"bob","instance":"i-1","guild":"g9","channel":"c9"}`)
	if sess.Player.UserID == "" {
		t.Fatalf("sign-in refused: %s", says)
	}
	tok, _ := srv.sessions.sign(sess)
	a := e.do(t, "POST", "/api/game", tok, `{"daily":"easy"}`)
	if a.status != 200 {
		t.Fatalf("the daily: %d %s", a.status, a.Error)
	}
	g := a.Game
	gs, _ := e.st.Game(context.Background(), g.ID)
	sol, _ := sudoku.Parse(gs.Solution)
	for i, c := range emptyCells(g) {
		e.clock.add(5 * time.Second) // a person's pace: the solve counts
		if a = e.do(t, "POST", fmt.Sprintf("/api/games/%d/move", g.ID), tok, fmt.Sprintf(`{"cell":%d,"kind":"digit","value":%d}`, c, sol.Cells[c])); a.status != 200 {
			t.Fatalf("move %d: %d %s", i, a.status, a.Error)
		}
	}
	if a.Game.Status != "solved" || a.Game.Leaderboard == nil || len(a.Game.Leaderboard.Rows) != 1 || !a.Game.Leaderboard.Rows[0].You {
		t.Fatalf("the finish: %s, leaderboard %+v; want Bob on it", a.Game.Status, a.Game.Leaderboard)
	}
	board := func(guild string) string {
		r := e.svc.Handle(context.Background(), commands.Request{Kind: commands.SlashCommand, UserID: ada.UserID, UserName: ada.UserName,
			GuildID: guild, ChannelID: "c9", Command: "daily", Subcommand: "leaderboard", Options: map[string]string{"level": "easy"}, Now: e.clock.now()})
		var b strings.Builder
		b.WriteString(r.Content)
		for _, em := range r.Embeds {
			b.WriteString("\n" + em.Title + "\n" + em.Description)
			for _, f := range em.Fields {
				b.WriteString("\n" + f.Name + ": " + f.Value)
			}
		}
		return b.String()
	}
	if lb := board("g9"); strings.Count(lb, bob.UserName) != 1 {
		t.Errorf("server g9's /daily leaderboard names Bob %d times, want once:\n%s", strings.Count(lb, bob.UserName), lb)
	}
	if lb := board("g1"); strings.Contains(lb, bob.UserName) {
		t.Errorf("another server's /daily leaderboard names Bob:\n%s", lb)
	}
}

// TestRoomActionsRecheck: a room's HTTP actions ask Discord again once
// its last word is RoomRecheck old: a player who left the Activity is
// refused then, changing nothing; within it Discord isn't asked.
func TestRoomActionsRecheck(t *testing.T) {
	fake := fakediscord.New(t, fakediscord.Options{Token: "bot-token", Activities: true})
	fake.SetActivityInstance("i-1", "c1", ada.UserID, bob.UserID)
	e := newEnv(t, Config{Instances: DiscordInstances{AppID: "100", BotToken: "bot-token", APIBase: fake.URL()}, RoomRecheck: time.Minute})
	a := e.join(t, e.token(bob), "i-1", "coop")
	if a.status != 200 {
		t.Fatalf("join: %d %s", a.status, a.Error)
	}
	g := a.Game
	free := emptyCells(g)
	move := func(cell int) answer {
		return e.do(t, "POST", fmt.Sprintf("/api/games/%d/move", g.ID), a.Token, fmt.Sprintf(`{"cell":%d,"kind":"notes","notes":1}`, cell))
	}
	fake.SetActivityInstance("i-1", "c1", ada.UserID) // Bob left
	e.clock.add(59 * time.Second)
	if m := move(free[0]); m.status != 200 {
		t.Errorf("a move within a minute of joining (Discord's word still holds): %d %s, want 200", m.status, m.Error)
	}
	e.clock.add(time.Second)
	before := e.snapshot(t, g.ID)
	for _, c := range []struct{ method, path, body string }{
		{"POST", fmt.Sprintf("/api/games/%d/move", g.ID), fmt.Sprintf(`{"cell":%d,"kind":"notes","notes":1}`, free[1])},
		{"GET", fmt.Sprintf("/api/games/%d", g.ID), ""},
		{"POST", fmt.Sprintf("/api/games/%d/undo", g.ID), ""},
	} {
		if r := e.do(t, c.method, c.path, a.Token, c.body); r.status != 403 || !strings.Contains(r.Error, "not in this Activity any more") {
			t.Errorf("%s %s a minute on, after Bob left: %d %q, want 403", c.method, c.path, r.status, r.Error)
		}
	}
	if e.snapshot(t, g.ID) != before {
		t.Errorf("refused actions changed the co-op game")
	}
	fake.SetActivityInstance("i-1", "c1", ada.UserID, bob.UserID) // back
	if m := move(free[1]); m.status != 200 {
		t.Errorf("a move once back in the Activity: %d %s, want 200", m.status, m.Error)
	}
	// Discord down: a stale word isn't trusted.
	e.clock.add(time.Minute)
	e.srv.cfg.Instances = DiscordInstances{AppID: "100", BotToken: "wrong-bot-token", APIBase: fake.URL()}
	if m := move(free[2]); m.status != 503 || !strings.Contains(m.Error, "couldn't ask Discord") {
		t.Errorf("a move when Discord can't say: %d %q, want 503", m.status, m.Error)
	}
}
