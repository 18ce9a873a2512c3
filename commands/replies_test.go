package commands

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"sudokubot/store"
	"sudokubot/sudoku"
	"sudokubot/vision"
)

var update = flag.Bool("update", false, "update golden files in testdata/")

// repliesGolden lists every reply the bot can send, one request after
// another, so that their words can be read (and reviewed) in one place.
const repliesGolden = "testdata/replies.golden"

// letterPuzzle is uniquePuzzle written in its own letters.
var letterPuzzle = strings.Map(func(r rune) rune {
	if r >= '1' && r <= '9' {
		return rune("AELMNOSTW"[r-'1'])
	}
	return r
}, uniquePuzzle)

// replyScript drives one Service through every command, button and error
// path and writes each reply as text.
type replyScript struct {
	t    *testing.T
	s    *Service
	st   *store.Store
	out  strings.Builder
	last Response
}

// timings are the parts of a reply that change from run to run.
var timings = regexp.MustCompile(`\b\d+(\.\d+)? ?(ns|µs|ms|s)\b`)

// do sends req under ctx and records the reply under name.
func (rs *replyScript) doCtx(ctx context.Context, name string, req Request) Response {
	rs.t.Helper()
	r := rs.s.Handle(ctx, req)
	checkLimits(rs.t, r)
	fmt.Fprintf(&rs.out, "### %s\n", name)
	writeReply(&rs.out, r, "")
	rs.out.WriteString("\n")
	rs.last = r
	return r
}

func (rs *replyScript) do(name string, req Request) Response {
	rs.t.Helper()
	return rs.doCtx(context.Background(), name, req)
}

// press clicks the button labelled label on the last reply, as who.
func (rs *replyScript) press(name string, w who, now time.Time, label string) Response {
	rs.t.Helper()
	b := findButton(rs.t, rs.last, label)
	return rs.do(name, w.click(now, b.CustomID))
}

// writeReply writes r as a person would read it: flags, text, embeds,
// attachments by name, buttons and modals.
func writeReply(b *strings.Builder, r Response, indent string) {
	line := func(format string, args ...any) {
		text := timings.ReplaceAllString(fmt.Sprintf(format, args...), "<t>")
		for _, l := range strings.Split(text, "\n") {
			b.WriteString(indent + l + "\n")
		}
	}
	var flags []string
	if r.Ephemeral {
		flags = append(flags, "ephemeral")
	}
	if r.Update {
		flags = append(flags, "edits the message")
	}
	if r.Choices != nil {
		line("(autocomplete: %s)", Plural(len(r.Choices), "choice", "choices"))
		for _, c := range r.Choices {
			line("  %s = %s", c.Name, c.Value)
		}
		return
	}
	if r.Content == "" && len(r.Embeds) == 0 && r.Modal == nil && len(r.Files) == 0 && len(r.Blocks) == 0 {
		flags = append(flags, "nothing sent")
	}
	if len(flags) > 0 {
		line("(%s)", strings.Join(flags, ", "))
	}
	if m := r.Modal; m != nil {
		line("[modal %q]", m.Title)
		for _, in := range m.Inputs {
			line("  [input %q, placeholder %q]", in.Label, in.Placeholder)
		}
	}
	if len(r.Blocks) > 0 {
		// Components V2: content and embeds are not sent beside blocks.
		line("(components v2)")
		for _, l := range LayoutLines(r.Blocks) {
			line("%s", l)
		}
	} else if r.Content != "" {
		line("%s", r.Content)
	}
	for _, e := range r.Embeds {
		if len(r.Blocks) > 0 {
			break
		}
		if e.Title != "" {
			line("== %s ==", e.Title)
		}
		if e.Description != "" {
			line("%s", e.Description)
		}
		for _, f := range e.Fields {
			line("%s: %s", f.Name, f.Value)
		}
		if e.Image != "" {
			line("[image %s]", strings.TrimPrefix(e.Image, "attachment://"))
		}
		if e.Footer != "" {
			line("-- %s", e.Footer)
		}
	}
	for _, f := range r.Files {
		if !strings.Contains(allEmbedImages(r), f.Name) {
			line("[file %s]", f.Name)
		}
	}
	for _, row := range r.Components {
		var labels []string
		for _, btn := range row.Buttons {
			labels = append(labels, "["+btn.Label+"]")
		}
		line("%s", strings.Join(labels, " "))
	}
	for i, f := range r.FollowUps {
		line("-- follow-up %d:", i+1)
		writeReply(b, f, indent+"   ")
	}
}

func allEmbedImages(r Response) string {
	var names []string
	for _, e := range r.Embeds {
		names = append(names, e.Image)
	}
	return strings.Join(names, " ")
}

// TestEveryReply writes every reply the bot can send to
// testdata/replies.golden (go test ./commands -run TestEveryReply -update)
// and fails when one changes without the golden file changing with it.
func TestEveryReply(t *testing.T) {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "replies.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	seed := uint64(100)
	intent := false
	var logged strings.Builder
	channels := &recordingChannels{}
	s := New(Config{
		Logf:  func(format string, args ...any) { fmt.Fprintf(&logged, format+"\n", args...) },
		Games: st, Settings: st, Puzzles: &fakePuzzles{}, Channels: channels,
		Seed:          func() uint64 { seed++; return seed },
		ContentIntent: func() bool { return intent },
	})
	rs := &replyScript{t: t, s: s, st: st}
	now := t0
	at := func(d time.Duration) time.Time { return now.Add(d) }
	sl := func(cmd string, opts ...string) Request { return ada.slash(now, cmd, "", opts...) }
	timedOut, cancel := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel()
	restarting, stop := context.WithCancel(context.Background())
	stop()

	// Help and unknown requests.
	rs.do("/help", sl("help"))
	rs.s = New(Config{})
	rs.do("/help without a game store", sl("help"))
	rs.s = s
	rs.do("unknown command", sl("frobnicate"))
	rs.do("old button", ada.click(now, "zzz:1"))

	// /solve in all its outcomes.
	rs.do("/solve", sl("solve", optPuzzle, uniquePuzzle))
	rs.do("/solve output:text", sl("solve", optPuzzle, uniquePuzzle, optOutput, outputText))
	rs.do("/solve private:true", sl("solve", optPuzzle, uniquePuzzle, optPrivate, "true"))
	rs.do("/solve letters", sl("solve", optPuzzle, letterPuzzle))
	rs.do("/solve with no puzzle opens a box", sl("solve", optOutput, outputText))
	box := rs.last.Modal
	submit := ada.req(ModalSubmit, now)
	submit.CustomID, submit.Fields = box.CustomID, map[string]string{optPuzzle: uniquePuzzle}
	rs.do("/solve box submitted", submit)
	rs.do("/solve only spaces", ada.slash(now, "solve", "", optPuzzle, "   "))
	rs.do("/solve unreadable", sl("solve", optPuzzle, "hello there"))
	rs.do("/solve too short", sl("solve", optPuzzle, uniquePuzzle[:70]))
	rs.do("/solve a link with no grid", sl("solve", optPuzzle, "can you do this one? https://sudoku.com/hard/"))
	rs.do("/solve too long", sl("solve", optPuzzle, strings.Repeat(uniquePuzzle+"\n", 80)))
	rs.do("/solve clashes", sl("solve", optPuzzle, clashPuzzle))
	rs.do("/solve no solution", sl("solve", optPuzzle, noSolutionPuzzle))
	rs.do("/solve several solutions", sl("solve", optPuzzle, multiPuzzle))
	rs.do("/solve empty grid", sl("solve", optPuzzle, strings.Repeat(".", 81)))
	rs.do("/solve complete grid", sl("solve", optPuzzle, uniqueSolution))
	rs.do("/solve bad output", sl("solve", optPuzzle, uniquePuzzle, optOutput, "gif"))
	data, err := os.ReadFile("testdata/hard25.txt")
	if err != nil {
		t.Fatal(err)
	}
	// A minimal 25x25 the solver needs seconds for, and one with clues
	// missing: the deadline has passed before they start.
	hard25 := strings.Fields(string(data))[0]
	few := mustGrid(hard25)
	for i := range few.Cells[:400] {
		few.Cells[i] = 0
	}
	rs.doCtx(timedOut, "/solve 25x25 timed out", sl("solve", optPuzzle, hard25))
	rs.doCtx(timedOut, "/solve 25x25 with few clues timed out", sl("solve", optPuzzle, few.String()))
	rs.doCtx(restarting, "/solve while restarting", sl("solve", optPuzzle, hard25))
	// A search the deadline stops after its first solution.
	big25 := withHoles(patternGrid(sudoku.Shape25), 120, 2).String()
	s.solveFn = firstOnly
	rs.do("/solve 25x25 solved, not proven unique in time", sl("solve", optPuzzle, big25, optOutput, outputText))
	rs.do("/check 25x25 solved, not proven unique in time", sl("check", optPuzzle, big25))
	s.solveFn = sudoku.Solve
	big := patternGrid(sudoku.Shape16)
	rs.do("/solve 16x16 output:text", sl("solve", optPuzzle, withHoles(big, 60, 1).String(), optOutput, outputText))

	// Apps menu.
	app := func(name, text string) Request {
		r := ada.req(MessageCommand, now)
		r.Command, r.Text = name, text
		return r
	}
	rs.do("Solve Sudoku on a message with no grid", app("Solve Sudoku", "good morning everyone"))
	rs.do("Check Sudoku", app("Check Sudoku", "can someone check this?\n"+uniquePuzzle))
	rs.do("Sudoku hint", app("Sudoku hint", uniquePuzzle))

	// /check.
	rs.do("/check", sl("check", optPuzzle, uniquePuzzle))
	rs.do("/check clashes", sl("check", optPuzzle, clashPuzzle))
	rs.do("/check no solution", sl("check", optPuzzle, noSolutionPuzzle))
	rs.do("/check several solutions", sl("check", optPuzzle, multiPuzzle))
	rs.do("/check empty grid", sl("check", optPuzzle, strings.Repeat(".", 81)))
	rs.do("/check letters", sl("check", optPuzzle, letterPuzzle))
	rs.doCtx(timedOut, "/check timed out", sl("check", optPuzzle, hard25))

	// /hint and its buttons.
	rs.do("/hint", sl("hint", optPuzzle, uniquePuzzle))
	rs.press("hint: More", ada, now, "More")
	rs.press("hint: Show step from level 2", ada, now, "Show step")
	rs.press("hint: Next hint", ada, now, "Next hint")
	rs.press("hint: Show step", ada, now, "Show step")
	rs.do("/hint no solution", sl("hint", optPuzzle, noSolutionPuzzle))
	rs.do("/hint several solutions", sl("hint", optPuzzle, multiPuzzle))
	rs.do("/hint empty grid", sl("hint", optPuzzle, strings.Repeat(".", 81)))
	rs.do("/hint two clues", sl("hint", optPuzzle, "5"+strings.Repeat(".", 79)+"1"))
	rs.do("/hint clashes", sl("hint", optPuzzle, clashPuzzle))
	rs.do("/hint solved grid", sl("hint", optPuzzle, uniqueSolution))
	rs.do("/hint letters", sl("hint", optPuzzle, letterPuzzle))
	rs.doCtx(timedOut, "/hint timed out", sl("hint", optPuzzle, hard25))
	rs.do("hint button with a lost state", ada.click(now, hintPrefix+":2:u:~nosuchkey"))
	// A pencil-mark grid whose A3 lost its answer (4): level 1 names the
	// cell, the next level the candidate.
	erased := mustGrid(uniquePuzzle)
	erased.Marks = erased.Candidates()
	erased.Marks[2] &^= 1 << 3
	rs.do("/hint pencil marks, an answer erased", sl("hint", optPuzzle, sudoku.Format(erased)))
	rs.press("hint: Which candidate?", ada, now, "Which candidate?")

	// /generate.
	rs.do("/generate", sl("generate"))
	rs.press("generate: Solution", ada, now, "Solution")
	rs.do("/generate 4x4 easy text", sl("generate", optSize, "4", optLevel, "easy", optOutput, outputText))
	rs.do("/generate 16x16 easy", sl("generate", optSize, "16", optLevel, "easy", optSymmetry, "none"))
	rs.press("generate 16x16: Solution", ada, now, "Solution")
	rs.do("/generate 4x4 medium", sl("generate", optSize, "4", optLevel, "medium"))
	rs.do("/generate 16x16 extreme", sl("generate", optSize, "16", optLevel, "extreme"))
	rs.do("/generate size:7", sl("generate", optSize, "7"))
	rs.doCtx(timedOut, "/generate timed out", sl("generate", optSize, "9", optLevel, "hard"))
	rs.doCtx(timedOut, "/generate extreme timed out", sl("generate", optSize, "9", optLevel, "extreme"))

	// Mentions and watched channels.
	msg := func(text string, mentioned bool) Request {
		r := ada.req(Mention, now)
		r.Text, r.Mentioned = text, mentioned
		return r
	}
	rs.do("mention with no grid", msg("<@1> hi!", true))
	rs.do("mention with a grid", msg("<@1> solve this pls\n"+uniquePuzzle, true))
	rs.do("mention with a broken grid", msg("<@1> "+uniquePuzzle[:75], true))
	admin := func(opts ...string) Request {
		r := sl("watch", opts...)
		r.Permissions = permManageGuild
		return r
	}
	rs.do("/watch status", admin(optMode, "status"))
	rs.do("/watch on (no content intent)", admin(optMode, "on"))
	intent = true
	rs.do("/watch on", admin(optMode, "on"))
	rs.do("/watch status when on", admin(optMode, "status"))
	rs.do("/watch without permission", sl("watch", optMode, "on"))
	dm := admin(optMode, "on")
	dm.GuildID = ""
	rs.do("/watch in a DM", dm)
	rs.do("/watch bad mode", admin(optMode, "maybe"))
	rs.do("post with a grid in a watched channel", msg(uniquePuzzle, false))
	offer := rs.last
	rs.press("offer: Solve", bob, now, "Solve")
	rs.last = offer
	rs.press("offer: Check", bob, now, "Check")
	rs.last = offer
	rs.press("offer: Hint", bob, now, "Hint")
	rs.do("post without a grid in a watched channel", msg("nice weather", false))
	rs.do("/watch off", admin(optMode, "off"))
	rs.s = New(Config{Settings: failingSettings{}})
	rs.do("/watch on, settings store down", admin(optMode, "on"))
	rs.do("/watch status, settings store down", admin(optMode, "status"))
	rs.s = s

	// /play: a whole game.
	rs.do("/play", sl("play", optLevel, "easy"))
	game := rs.last
	id := fmt.Sprint(gameID(t, game))
	rs.press("game: Enter moves", ada, at(time.Second), "Enter moves")
	moves := func(name, text string, d time.Duration) Response {
		return rs.do(name, ada.submit(at(d), gmovePrefix+":"+id, text))
	}
	moves("moves: good, bad and clashing", "A1 9, A5 9, Z9 3, A2 x5\nA3 p34", time.Minute)
	moves("moves: nothing readable", "hello", time.Minute)
	rs.do("game: Hint with a clash on the board", ada.click(at(time.Minute), gamePrefix+":h:"+id))
	moves("moves: pencil marks with spaces", "B1 p4 8", time.Minute)
	rs.do("game: Check with a wrong entry", ada.click(at(2*time.Minute), gamePrefix+":c:"+id))
	rs.do("game: Undo", ada.click(at(2*time.Minute), gamePrefix+":u:"+id))
	rs.press("game: Undo all?", ada, at(2*time.Minute), "Undo all")
	rs.press("game: Yes, undo all", ada, at(2*time.Minute), "Yes, undo all")
	rs.do("game: Undo with nothing left", ada.click(at(2*time.Minute), gamePrefix+":u:"+id))
	rs.do("game: Check with nothing entered", ada.click(at(2*time.Minute), gamePrefix+":c:"+id))
	p := playPuzzles[0]
	first := strings.IndexByte(p[0], '0')
	moves("moves: one right entry", sudoku.Shape9.CellName(first)+" "+p[1][first:first+1], 3*time.Minute)
	rs.do("game: Check all right", ada.click(at(3*time.Minute), gamePrefix+":c:"+id))
	rs.do("game: Hint", ada.click(at(4*time.Minute), gamePrefix+":h:"+id))
	rs.do("game: Hint, level 2", ada.click(at(4*time.Minute), gamePrefix+":h2:"+id))
	rs.do("game: Hint, the step", ada.click(at(4*time.Minute), gamePrefix+":h3:"+id))
	rs.do("game: Hint again", ada.click(at(4*time.Minute), gamePrefix+":h:"+id))
	rs.do("game: someone else's board", bob.click(at(4*time.Minute), gamePrefix+":c:"+id))
	rs.do("game: Give up?", ada.click(at(5*time.Minute), gamePrefix+":g:"+id))
	rs.press("game: Keep playing", ada, at(5*time.Minute), "Keep playing")
	// The rest in three boxes: one box filling half the board would be
	// the solution entered at once (fair.go), not rated.
	rest := strings.Split(movesFor(p[0], p[1]), ", ")
	third := len(rest) / 3
	moves("moves: a third of the rest", strings.Join(rest[:third], ", "), 5*time.Minute+30*time.Second)
	moves("moves: another third", strings.Join(rest[third:2*third], ", "), 6*time.Minute)
	moves("moves: the rest, solved", strings.Join(rest[2*third:], ", "), 6*time.Minute+41*time.Second)
	rs.do("game: a button after the end", ada.click(at(7*time.Minute), gamePrefix+":c:"+id))
	rs.do("moves after the end", ada.submit(at(7*time.Minute), gmovePrefix+":"+id, "A1 5"))
	rs.do("/play another", sl("play", optLevel, "medium"))
	id = fmt.Sprint(gameID(t, rs.last))
	moves("moves: a wrong full board", movesFor(playPuzzles[1][0], strings.Repeat("1", 81)), time.Minute)
	rs.do("game: Give up?", ada.click(at(time.Minute), gamePrefix+":g:"+id))
	rs.press("game: Yes, give up", ada, at(time.Minute), "Yes, give up")
	rs.do("/play 4x4 hard", sl("play", optSize, "4", optLevel, "hard"))
	rs.do("/play a third", sl("play", optLevel, "hard"))
	id = fmt.Sprint(gameID(t, rs.last))
	hard := playPuzzles[int(sudoku.Hard)%len(playPuzzles)]
	pasted := []byte(strings.ReplaceAll(hard[0], "0", "."))
	blank := strings.IndexByte(hard[0], '0')
	pasted[blank] = hard[1][blank]
	moves("moves: a pasted grid", string(pasted), time.Minute)
	moves("moves: too long", strings.Repeat("A1 5, ", 1200), time.Minute)
	rs.do("game button of a missing game", ada.click(now, gamePrefix+":c:99999"))
	// A 4x4's example moves hold values a 4x4 has (not `A1 5`).
	rs.do("/play 4x4", sl("play", optSize, "4"))
	id4 := fmt.Sprint(gameID(t, rs.last))
	rs.press("game 4x4: Enter moves", ada, now, "Enter moves")
	rs.do("moves 4x4: nothing readable", ada.submit(now, gmovePrefix+":"+id4, "hello"))

	// /daily.
	ds := func(w who, sub string, opts ...string) Request { return w.slash(now, "daily", sub, opts...) }
	rs.do("/daily with no sub-command", ds(ada, ""))
	rs.do("/daily play level:extreme", ds(ada, "play", optLevel, "extreme"))
	rs.do("/daily stats, a newcomer", ds(ada, "stats"))
	rs.do("/daily leaderboard, no one yet", ds(ada, "leaderboard"))
	rs.do("/daily leaderboard yesterday", ds(ada, "leaderboard", optDate, "yesterday"))
	rs.do("/daily play", ds(ada, "play", optLevel, "easy"))
	id = fmt.Sprint(gameID(t, rs.last))
	daily, _ := (&fakePuzzles{}).Daily(context.Background(), now, sudoku.Easy)
	// Typed in two entries, the last under half the cells: a fair solve.
	all := strings.Split(movesFor(strings.ReplaceAll(daily.Grid.String(), ".", "0"), daily.Solution.String()), ", ")
	cut := len(all) * 2 / 3
	moves("daily: most moves", strings.Join(all[:cut], ", "), 2*time.Minute)
	moves("daily: solved", strings.Join(all[cut:], ", "), 4*time.Minute)
	rs.do("/daily play again", ds(ada, "play", optLevel, "easy"))
	rs.do("/daily leaderboard", ds(bob, "leaderboard", optLevel, "easy"))
	rs.do("/daily stats", ds(ada, "stats"))
	stats := ds(bob, "stats")
	stats.Options[optUser] = ada.user
	rs.do("/daily stats of someone else", stats)
	// The whole medium solution pasted 0:19 after the board showed.
	dee := who{"u-dee", "Dee", ada.guild}
	rs.do("/daily play medium, Dee", dee.slash(now, "daily", "play", optLevel, "medium"))
	medium, _ := (&fakePuzzles{}).Daily(context.Background(), now, sudoku.Medium)
	rs.do("daily: the whole solution pasted in 0:19", dee.submit(now.Add(19*time.Second), gmovePrefix+":"+fmt.Sprint(gameID(t, rs.last)), medium.Solution.String()))
	rs.do("/daily leaderboard medium, without the paste", ds(bob, "leaderboard", optLevel, "medium"))
	rs.do("/daily stats, only a flagged finish", dee.slash(now, "daily", "stats"))
	rs.do("/daily flagged without permission", ds(ada, "flagged"))
	flagged := ds(ada, "flagged")
	flagged.Permissions = permManageGuild
	rs.do("/daily flagged", flagged)
	flagged.GuildID = "g-quiet"
	rs.do("/daily flagged, none", flagged)
	flagged.GuildID = ""
	rs.do("/daily flagged in a DM", flagged)
	// /profile: Eve's time zone, and her dailies by her date.
	eve := who{"u-eve", "Eve", ada.guild}
	pf := func(opts ...string) Request { return eve.slash(now, "profile", "", opts...) }
	rs.do("/profile, no zone yet", pf())
	rs.do("/profile timezone:Pacific/Kiritimati", pf(optTimezone, "Pacific/Kiritimati"))
	rs.do("/profile", pf())
	rs.do("/daily play at UTC+14", eve.slash(now, "daily", "play", optLevel, "easy"))
	rs.do("/profile timezone:pacific/kiritimati, the same", pf(optTimezone, "pacific/kiritimati"))
	rs.do("/profile timezone:Etc/GMT+12, back west", pf(optTimezone, "Etc/GMT+12"))
	rs.do("/profile timezone:Tokyo", pf(optTimezone, "Tokyo"))
	rs.do("/profile timezone: unknown", pf(optTimezone, "Mars/Olympus"))
	typing := func(text, locale string) Request {
		r := pf(optTimezone, text)
		r.Kind, r.Focused, r.Locale = Autocomplete, optTimezone, locale
		return r
	}
	rs.do("/profile timezone: typing nothing, French", typing("", "fr"))
	rs.do("/profile timezone: typing nothing, American", typing("", "en-US"))
	rs.do("/profile timezone: typing \"new y\"", typing("new y", "en-GB"))
	rs.do("/profile timezone: typing \"zzz\"", typing("zzz", "en-GB"))
	rs.do("/daily play date:yesterday, the archive", dee.slash(now, "daily", "play", optLevel, "hard", optDate, "yesterday"))
	rs.do("/daily play date:2099-01-01", dee.slash(now, "daily", "play", optDate, "2099-01-01"))
	rs.do("/daily leaderboard bad date", ds(ada, "leaderboard", optDate, "next tuesday"))
	rs.do("/daily leaderboard future", ds(ada, "leaderboard", optDate, "2099-01-01"))
	rs.do("/daily leaderboard before the first", ds(ada, "leaderboard", optDate, "2020-01-01"))
	dmBoard := ds(ada, "leaderboard")
	dmBoard.GuildID = ""
	rs.do("/daily leaderboard in a DM", dmBoard)
	setup := func(opts ...string) Request {
		r := ds(ada, "setup", opts...)
		r.Permissions = permManageGuild
		// Discord resolves a channel option with its server.
		r.ChannelGuilds = map[string]string{"c-daily": ada.guild, "c-other": "g-other"}
		return r
	}
	rs.do("/daily setup without permission", ds(ada, "setup", optChannel, "c-daily"))
	rs.do("/daily setup, off so far", setup())
	rs.do("/daily setup channel hour:23", setup(optChannel, "c-daily", optHour, "23"))
	rs.do("/daily setup channel", setup(optChannel, "c-daily"))
	rs.do("/daily setup, as it is", setup())
	rs.do("/daily setup bad hour", setup(optChannel, "c-daily", optHour, "25"))
	rs.do("/daily setup another server's channel", setup(optChannel, "c-other"))
	rs.do("/daily setup off", setup(optOff, "true"))
	dmSetup := setup(optChannel, "c-daily")
	dmSetup.GuildID = ""
	rs.do("/daily setup in a DM", dmSetup)
	// Boards beyond a day and a server, the rating and the choices.
	rs.do("/profile, Ada rated", ada.slash(now, "profile", ""))
	rs.do("/daily leaderboard period:week", ds(ada, "leaderboard", optPeriod, "week"))
	rs.do("/daily leaderboard period:month scope:global", ds(ada, "leaderboard", optPeriod, "month", optScope, "global", optLevel, "easy"))
	rs.do("/daily leaderboard period:fortnight", ds(ada, "leaderboard", optPeriod, "fortnight"))
	dmServer := ds(ada, "leaderboard", optScope, "server")
	dmServer.GuildID = ""
	rs.do("/daily leaderboard scope:server in a DM", dmServer)
	rs.do("/profile hide_name:false, never hidden", ada.slash(now, "profile", "", optHideName, "false"))
	rs.do("/profile hide_name:true", ada.slash(now, "profile", "", optHideName, "true"))
	rs.do("/profile hide_name:true, hidden already", ada.slash(now, "profile", "", optHideName, "true"))
	rs.do("/daily leaderboard scope:global, Ada hidden", ds(bob, "leaderboard", optScope, "global", optLevel, "easy"))
	rs.do("/profile hide_name:false timezone:Europe/Paris", ada.slash(now, "profile", "", optHideName, "false", optTimezone, "Europe/Paris"))
	rs.do("/daily setup global:false", setup(optGlobal, "false"))
	rs.do("/daily setup global:false, as it is", setup())
	rs.do("/daily leaderboard scope:global in a server kept off", ds(bob, "leaderboard", optScope, "global", optLevel, "easy"))
	rs.do("/daily setup global:true channel", setup(optGlobal, "true", optChannel, "c-daily"))
	rs.do("/daily setup off", setup(optOff, "true"))
	post, err := s.DailyPost(context.Background(), now)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&rs.out, "### the daily post\n")
	writeReply(&rs.out, post, "")
	rs.out.WriteString("\n")
	rs.last = post
	rs.press("daily post: Play medium", bob, now, "Play medium")
	rs.last = post
	rs.press("daily post: Leaderboard", bob, now, "Leaderboard")
	rs.last = post
	rs.press("daily post: Play easy, the next day", bob, now.AddDate(0, 0, 1), "Play easy")

	// /privacy: what is kept about ada by now, and deleting it.
	rs.do("/privacy show", ada.slash(now, "privacy", "show"))
	ask := rs.do("/privacy delete", ada.slash(now, "privacy", "delete"))
	rs.press("privacy: Keep it", ada, now, "Keep it")
	rs.do("privacy: someone else's button", bob.click(now, findButton(t, ask, "Delete everything").CustomID))
	rs.last = ask
	rs.press("privacy: Delete everything", ada, now, "Delete everything")
	rs.do("/privacy show, nothing kept", ada.slash(now, "privacy", "show"))
	rs.do("/privacy delete, nothing kept", ada.slash(now, "privacy", "delete"))

	// Pictures of a half-played puzzle (testdata/pictures): the givens in
	// the givens' ink, the player's entries (three wrong) in lighter ink.
	fay := who{"u-fay", "Fay", ada.guild}
	pics := map[string]entryPicture{}
	for _, p := range loadEntryPictures(t) {
		pics[p.file] = p
	}
	pic := func(cmd, file string) Request {
		r := fay.slash(now, cmd, "", optImage, file)
		r.Images = [][]byte{pics[file].data}
		return r
	}
	rs.do("/check on a picture with entries", pic("check", "entries-light.png"))
	rs.do("/check on a picture with right entries", pic("check", "entries-right.png"))
	rs.do("/solve on a photo with entries", pic("solve", "entries-photo.jpg"))
	rs.do("/hint on a picture with entries (three wrong) and pencil marks", pic("hint", "entries-dark.png"))
	rs.do("/hint on a picture with right entries", pic("hint", "entries-right.png"))
	rs.do("/play on a photo with entries", pic("play", "entries-photo.jpg"))
	rs.press("game from a photo: Check", fay, now, "Check")
	rs.press("game from a photo: Undo", fay, now, "Undo")
	blankPlay := fay.slash(now, "play", "", optImage, "blank.png")
	blankPlay.Images = [][]byte{blankPicture(t)}
	rs.do("/play on a picture with no grid", blankPlay)
	rs.do("/watch on, for pictures", admin(optMode, "on"))
	watchedPost := msg("", false)
	watchedPost.HasImage, watchedPost.Images = true, [][]byte{pics["entries-light.png"].data}
	rs.do("picture with entries posted in a watched channel", watchedPost)
	rs.press("offer under a picture with entries: Check", bob, now, "Check")
	rs.do("/watch off, after pictures", admin(optMode, "off"))
	// Read unsure: the reading is shown first, with Play as read.
	right := pics["entries-right.png"]
	res := &vision.Result{Size: 9, Cells: make([]vision.Cell, 81)}
	for i, v := range right.position.Cells {
		res.Cells[i] = vision.Cell{Digit: int(v), Confidence: 1, Entry: v != 0 && right.puzzle.Cells[i] == 0}
	}
	res.Cells[1].Confidence = 0.6
	unsure := s.unsureReply(s.playFeature.pictureCommand(), newPictureRead(right.position, res), res, right.data, nil)
	checkLimits(t, unsure)
	fmt.Fprintf(&rs.out, "### /play on a picture read unsure\n")
	writeReply(&rs.out, unsure, "")
	rs.out.WriteString("\n")
	rs.last = unsure
	rs.press("picture: Play as read", fay, now, "Play as read")
	unread := right.puzzle.Clone()
	for i := range unread.Cells[:27] {
		unread.Cells[i] = 0 // the top band's givens unread
	}
	rs.do("picture: Play as read, givens with many solutions", fay.click(now, s.customID(picPrefix+":"+playCommand, gridState{Puzzle: unread})))
	// /check read unsure, fixed: the entries stay the player's.
	light := pics["entries-light.png"]
	lightRes := &vision.Result{Size: 9, Cells: make([]vision.Cell, 81)}
	for i, v := range light.position.Cells {
		lightRes.Cells[i] = vision.Cell{Digit: int(v), Confidence: 1, Entry: v != 0 && light.puzzle.Cells[i] == 0}
	}
	lightRes.Cells[1].Confidence = 0.6
	unsureCheck := s.unsureReply(s.askers["check"], newPictureRead(light.position, lightRes), lightRes, light.data, nil)
	checkLimits(t, unsureCheck)
	fmt.Fprintf(&rs.out, "### /check on a picture with entries read unsure\n")
	writeReply(&rs.out, unsureCheck, "")
	rs.out.WriteString("\n")
	rs.last = unsureCheck
	fixModal := rs.press("picture: Fix", fay, now, "Fix")
	if fixModal.Modal != nil {
		fixed := fay.req(ModalSubmit, now)
		fixed.CustomID, fixed.Fields = fixModal.Modal.CustomID, map[string]string{optPuzzle: fixModal.Modal.Inputs[0].Value}
		rs.do("picture: Fix sent back as it was (the entries stay yours)", fixed)
	}
	rs.do("picture: Play as read, every entry filled and right", fay.click(now, s.customID(picPrefix+":"+playCommand,
		gridState{Puzzle: right.puzzle, Position: mustGrid(uniqueSolution)})))
	rs.do("picture: Check as read, every entry filled and right", fay.click(now, s.customID(picPrefix+":check",
		gridState{Puzzle: right.puzzle, Position: mustGrid(uniqueSolution)})))
	bothWrong := right.puzzle.Clone()
	bothWrong.Cells[2], bothWrong.Cells[3] = 5, 5 // beside the given 5 of A1
	rs.do("picture: Check as read, both entries wrong", fay.click(now, s.customID(picPrefix+":check", gridState{Puzzle: right.puzzle, Position: bothWrong})))

	// /race: a lobby, its refusals, the start, boards, the scoreboard
	// and the results (what the bot posts and edits on its own is shown
	// as "posted" and "edited").
	seen := 0
	showPosts := func() {
		posts, edits, threads := channels.snapshot()
		for _, th := range threads[min(seen, len(threads)):] {
			fmt.Fprintf(&rs.out, "### thread made: %s\n\n", th)
		}
		seen = len(threads)
		for _, p := range posts {
			fmt.Fprintf(&rs.out, "### posted in %s as %s\n", p.channel, p.message)
			writeReply(&rs.out, p.r, "")
			rs.out.WriteString("\n")
		}
		for _, p := range edits {
			fmt.Fprintf(&rs.out, "### edited %s in %s\n", p.message, p.channel)
			writeReply(&rs.out, p.r, "")
			rs.out.WriteString("\n")
		}
		channels.mu.Lock()
		channels.posts, channels.edits = nil, nil
		channels.mu.Unlock()
	}
	rs.do("/race in a DM", func() Request { r := sl("race"); r.GuildID = ""; return r }())
	rs.do("/race vs yourself", sl("race", optVs, ada.user))
	rs.do("/race daily with a size", sl("race", optDaily, "easy", optSize, "6"))
	rs.do("/race puzzle with a level", sl("race", optPuzzle, uniquePuzzle, optLevel, "easy"))
	rs.do("/race puzzle with two solutions", sl("race", optPuzzle, strings.Repeat(".", 81)))
	rs.do("/race puzzle with no solution", sl("race", optPuzzle, "12345678."+strings.Repeat(".", 71)+"9"))
	rs.do("/race puzzle that clashes", sl("race", optPuzzle, "11"+strings.Repeat(".", 79)))
	// The lobby is a post of its own; the answer to /race is private.
	lobbyPosted := func() Response {
		posts, _, _ := channels.snapshot()
		if len(posts) == 0 {
			t.Fatal("/race posted no lobby")
		}
		lobby := posts[len(posts)-1].r
		showPosts()
		return lobby
	}
	rs.do("/race daily", sl("race", optDaily, "hard"))
	lobbyPosted()
	rs.do("/race puzzle", sl("race", optPuzzle, uniquePuzzle))
	lobbyPosted()
	rs.do("/race vs", sl("race", optVs, bob.user))
	duel := lobbyPosted()
	rs.last = duel
	rs.press("duel: Join by someone else", dee, now, "Join")
	rs.last = duel
	rs.press("duel: Start before the rival joined", ada, now, "Start")
	rs.last = duel
	rs.press("duel: Start by someone not in it", dee, now, "Start")
	rs.do("/race level:medium", sl("race", optLevel, "medium"))
	lobby := lobbyPosted()
	rs.last = lobby
	rs.press("race: Start alone", ada, now, "Start")
	rs.last = lobby
	rs.press("race: Join by the starter", ada, now, "Join")
	rs.do("race: Play in the lobby", bob.click(now, strings.Replace(findButton(t, lobby, "Join").CustomID, "race:j:", "race:p:", 1)))
	rs.last = lobby
	rs.press("race: Leave by someone not in it", bob, now, "Leave")
	rs.last = lobby
	rs.press("race: Join from another server", who{"u-mal", "Mal", "g9"}, now, "Join")
	rs.last = lobby
	rs.press("race: Join", bob, now, "Join")
	rs.press("race: Join", dee, now, "Join")
	rs.press("race: Leave", dee, now, "Leave")
	rs.press("race: Start by a player, not the starter", bob, now, "Start")
	rs.last = lobby
	rs.press("race: Start by someone not in it", dee, now, "Start")
	rs.last = lobby
	start := ada.click(now, findButton(t, lobby, "Start").CustomID)
	start.MessageID = "lobby-1"
	started := rs.do("race: Start", start)
	showPosts()
	rs.last = lobby
	rs.press("race: Start again", ada, now, "Start")
	rs.last = lobby
	rs.press("race: Join after the start", dee, now, "Join")
	rs.last = started
	rs.press("race: Play before the countdown ends", ada, now, "Play")
	go1 := now.Add(raceCountdown)
	rs.last = started
	rs.press("race: Play by someone not in it", dee, go1, "Play")
	rs.last = started
	board := rs.press("race: Play", ada, go1, "Play")
	rs.last = started
	rs.press("race: Play (Bob)", bob, go1, "Play")
	rs.last = board
	rs.press("race board: Enter moves", ada, go1, "Enter moves")
	adaRace := rs.last.Modal.CustomID
	rs.do("race board: moves with a mistake", ada.submit(go1.Add(time.Minute), adaRace, "A3 1, A4 2"))
	showPosts()
	rs.do("race board: someone else's moves", bob.submit(go1.Add(time.Minute), adaRace, "A3 1"))
	rs.do("race: Play after Bob's idle time", ada.click(go1.Add(raceIdleAfter+time.Minute), findButton(t, started, "Play").CustomID))
	showPosts()
	rs.do("race board: the finishing moves", ada.submit(go1.Add(raceIdleAfter+2*time.Minute), adaRace, moveList(1, 0, 56)))
	showPosts()
	rs.do("race: Leave after the end", bob.click(go1.Add(time.Hour), strings.Replace(findButton(t, lobby, "Join").CustomID, "race:j:", "race:l:", 1)))
	// The lobbies nobody started (the daily's, the pasted puzzle's, the
	// duel) are called off by the tick.
	s.Tick(context.Background(), now.Add(raceLobbyLife))
	showPosts()

	// /play together: one board in a thread.
	rs.do("/play together", sl("play", optTogether, "true", optLevel, "easy"))
	posts, _, _ := channels.snapshot()
	coop := posts[len(posts)-1]
	showPosts()
	rs.last = coop.r
	coopMove := func(name string, w who, moves string) {
		req := w.submit(now.Add(time.Minute), movesModalID(gameIDOf(coop.r)), moves)
		req.ChannelID = coop.channel
		rs.do(name, req)
	}
	coopMove("co-op: Bob's moves", bob, "A3 1, A4 2")
	coopMove("co-op: a move that can't be played", dee, "Z9 1")
	rs.last = coop.r
	giveUp := bob.click(now, findButton(t, coop.r, "Give up").CustomID)
	giveUp.ChannelID = coop.channel
	rs.do("co-op: Give up by someone else", giveUp)
	rs.do("co-op: a move from another channel", bob.submit(now, movesModalID(gameIDOf(coop.r)), "A3 1"))

	// The bot's own answers, for requests it turns away before a command
	// sees them.
	rs.out.WriteString("### the bot's own notices\n")
	for _, n := range []string{
		BusyNotice(12500 * time.Millisecond), RateLimitedNotice(0), StillWorkingNotice(5 * time.Second),
		CoolingOffNotice(time.Minute), QueuedNotice(1), QueuedNotice(3), ErrorNotice("1234"),
		UnreadableRequestNotice, FormTooLateNotice, EmptyAnswerNotice, RestartingNotice,
		StoppedNotice(5 * time.Second),
		FileTooBigNotice("big.png", true, 12<<20, 10<<20), FileTooBigNotice("grid.txt", false, 70_000, 64<<10),
		PictureTooLargeNotice("huge.png", 9000, 9000, 40_000_000),
		FileUnreadableNotice("grid.txt", false, nil), FileUnreadableNotice("photo.webp", true, errors.New("not a PNG, JPEG or WebP picture")),
		FileDownloadNotice("grid.txt", false), FileDownloadNotice("photo.png", true),
	} {
		rs.out.WriteString("- " + n + "\n")
	}
	rs.out.WriteString("\n")

	got := rs.out.String()
	// Seeds and the engine's error chains go to the log, never to a reply.
	for _, secret := range []string{"seed", "attempts", "deadline exceeded", "unreachable"} {
		if strings.Contains(got, secret) {
			t.Errorf("a reply says %q; that belongs in the log", secret)
		}
	}
	if !strings.Contains(logged.String(), "seed") {
		t.Errorf("the failed /generate logged nothing with its seed; log:\n%s", logged.String())
	}
	if *update {
		if err := os.WriteFile(repliesGolden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(repliesGolden)
	if err != nil {
		t.Fatalf("%v (run go test ./commands -run TestEveryReply -update)", err)
	}
	if got != string(want) {
		t.Errorf("replies differ from %s (run with -update and review the diff):\n%s", repliesGolden, firstDiff(string(want), got))
	}
}

// firstDiff shows where two texts part, with a little context.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\nwant %q\n got %q", i+1, w, g)
		}
	}
	return "(same lines)"
}
