package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	botcmd "sudokubot/commands"
	"sudokubot/store"
	"sudokubot/sudoku"
	"sudokubot/vision"
)

// consoleHelp is printed by "help" at the console prompt.
const consoleHelp = `Type a command the way you would in Discord:
  /solve puzzle:53..7....6..195... output:text    options are name:value
  /solve                                          then paste a grid, end with an empty line
  /check, /hint, /generate level:easy size:16, /help
  /play level:easy                                a game of your own: click its buttons to play
  /daily play level:hard                          also /daily leaderboard, /daily stats
  /solve image:board.png                          a picture of a puzzle, as an attachment (also /hint, /check)
  /daily setup channel:#general hour:9            the daily post (channels are named freely here)
  /daily stats user:@ada                          users too: @name, or @me
  /watch mode:on                                  offer buttons under grids posted here (see post)
  app Solve Sudoku                                an Apps-menu command (Solve Sudoku, Sudoku hint, Check Sudoku):
                                                  paste the message, end with an empty line
  mention                                         a message that mentions the bot: paste it, end with an empty line
  post                                            a message that doesn't (try it after /watch mode:on)
  attach board.png                                a picture sent with the next mention, post or app message
  click 2                                         press button 2 of the last reply
  click m3 1                                      press button 1 of message m3 (a lobby, a scoreboard)
  /race level:easy, /race vs:@bob                 a race (Join, Start, then Play) in a thread; /play together:true
  as bob                                          act as another member (as me: yourself again)
  wait 10m                                        move the console's clock on (a race's countdown, idle players)
  help, quit
Games and settings live in memory here: they are gone when the console closes.`

// runConsole serves the bot's commands at a terminal prompt: the same
// botcmd.Service the bot runs, with text printed inline and images saved
// to files.
func runConsole(ctx context.Context, args []string, stdio IO) int {
	fs := newFlags(stdio, "console", "[-out DIR] [-timeout 5s]",
		"The same commands as in Discord, typed at a prompt; type help there for the list.")
	out := fs.String("out", "", "folder for images (default: a new temporary folder)")
	timeout := fs.Duration("timeout", 0, "deadline for each command (default SOLVE_TIMEOUT, else 5s)")
	board := fs.String("activity", stdio.getenv("ACTIVITY_ADDR"), "serve the game board page at this loopback address, e.g. 127.0.0.1:8090 (default ACTIVITY_ADDR)")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return fs.usageError("unexpected argument %q: all options are flags", fs.Arg(0))
	}
	if *timeout <= 0 {
		*timeout = botcmd.DefaultSolveTimeout
		if v := stdio.getenv("SOLVE_TIMEOUT"); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				fmt.Fprintf(stdio.Stderr, "sudokubot console: SOLVE_TIMEOUT=%q is not a duration like 5s\n", v)
				return 2
			}
			*timeout = d
		}
	}
	dir := *out
	if dir == "" {
		d, err := os.MkdirTemp("", "sudokubot-console-")
		if err != nil {
			fmt.Fprintf(stdio.Stderr, "sudokubot console: %v\n", err)
			return 1
		}
		dir = d
		// A folder of our own making goes when the console closes; one
		// given with -out is the user's and stays.
		defer os.RemoveAll(d)
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot console: %v\n", err)
		return 1
	}
	// Games played here live in memory: /play and /daily work, and are gone
	// when the console closes.
	st, err := store.Open(ctx, ":memory:")
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot console: %v\n", err)
		return 1
	}
	defer st.Close()
	secret, warning, err := dailySecret(ctx, stdio.getenv, st)
	if warning != "" {
		fmt.Fprintf(stdio.Stderr, "%s: warning: %s\n", "sudokubot console", warning)
	}
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot console: %v\n", err)
		return 1
	}
	// What a reply leaves out (an engine error's details) goes to stderr,
	// as the bot's log would.
	logf := func(format string, args ...any) { fmt.Fprintf(stdio.Stderr, "log: "+format+"\n", args...) }
	c := &console{
		done:    make(chan struct{}),
		out:     stdio.Stdout,
		dir:     dir,
		timeout: *timeout,
		user:    stdio.getenv("USER"),
	}
	c.svc = botcmd.New(botcmd.Config{Logf: logf, SolveTimeout: *timeout, Settings: st, Games: st, DailySecret: secret,
		Channels: consoleChannels{c}})
	in := bufio.NewScanner(stdio.Stdin)
	in.Buffer(make([]byte, 64*1024), 1<<20)
	c.lines = readLines(in, c.done)
	defer close(c.done)
	if c.user == "" {
		c.user = "you"
	}
	if *board != "" {
		// The page plays the console's games: same store, same user, same
		// server (a daily finished there is on /daily leaderboard).
		bctx, cancel := context.WithCancel(ctx)
		defer cancel()
		url, err := serveActivity(bctx, *board, &botcmd.Player{UserID: consoleUser, UserName: c.user, GuildID: consoleGuild, ChannelID: consoleChannel}, nil, nil, c.svc, st, logf)
		if err != nil {
			fmt.Fprintf(stdio.Stderr, "sudokubot console: %v\n", err)
			return 2
		}
		fmt.Fprintf(c.out, "The game board: %s (games you start there or with /play are the same ones)\n", url)
	}
	where := "images go to " + dir
	if *out == "" {
		where += " (removed when you quit; -out DIR keeps them)"
	}
	fmt.Fprintf(c.out, "sudokubot console — %s. Games live in memory and end with the console. Type help for help, quit to leave.\n", where)
	c.loop(ctx)
	return 0
}

// console is one prompt session.
type console struct {
	svc *botcmd.Service
	// lines are the input's lines, read apart from the prompt so that
	// Ctrl-C (ctx) ends the console even while it waits for a line; done
	// stops the reader.
	lines   <-chan string
	done    chan struct{}
	out     io.Writer
	dir     string
	timeout time.Duration
	user    string
	// as is the member the console acts as ("" for its own user), set by
	// "as NAME".
	as string
	// offset moves the console's clock on ("wait 10m").
	offset time.Duration
	// buttons are the buttons of the last reply, numbered from 1, and the
	// message they are on.
	buttons    []botcmd.Button
	buttonsMsg string
	// messages are the public messages shown so far, by id: their channel
	// and buttons, for "click m3 1" and for a button's request.
	messages map[string]consoleMessage
	threads  int // threads made so far
	msgs     int // messages shown so far, for their ids
	// elsewhere is the message the bot is posting or editing on its own
	// while it is shown: its buttons are clicked by its id.
	elsewhere string
	// attached is the picture the next message carries (attach FILE).
	attached     []byte
	attachedName string
	seq          int // requests so far, for ids and file names
}

// consoleMessage is a message shown at the console: where it is and its
// buttons.
type consoleMessage struct {
	channel string
	buttons []botcmd.Button
}

func (c *console) loop(ctx context.Context) {
	for ctx.Err() == nil {
		fmt.Fprint(c.out, "> ")
		text, ok := c.readLine(ctx)
		if !ok {
			fmt.Fprintln(c.out)
			return
		}
		// Races move on with time: what the bot's ticker would have done
		// by now shows first.
		c.svc.Tick(ctx, c.now())
		line := strings.TrimSpace(text)
		switch {
		case line == "":
		case line == "as" || strings.HasPrefix(line, "as "):
			c.switchUser(strings.TrimSpace(strings.TrimPrefix(line, "as")))
		case line == "wait" || strings.HasPrefix(line, "wait "):
			c.wait(ctx, strings.TrimSpace(strings.TrimPrefix(line, "wait")))
		case line == "quit" || line == "exit":
			return
		case line == "help" || line == "?":
			fmt.Fprintln(c.out, consoleHelp)
		case strings.HasPrefix(line, "/"):
			c.slash(ctx, line[1:])
		case strings.HasPrefix(line, "click"):
			c.click(ctx, strings.TrimSpace(strings.TrimPrefix(line, "click")))
		case line == "app" || strings.HasPrefix(line, "app "):
			name := strings.TrimSpace(strings.TrimPrefix(line, "app"))
			if !c.isApp(name) {
				what := fmt.Sprintf("No Apps-menu command %q", name)
				if name == "" {
					what = "Name the Apps-menu command"
				}
				fmt.Fprintf(c.out, "%s: try %s.\n", what, strings.Join(c.apps(), ", "))
				continue
			}
			text := c.paste(ctx, "Paste the message"+c.withPicture()+", then an empty line:")
			c.do(ctx, c.message(botcmd.Request{Kind: botcmd.MessageCommand, Command: name, Text: text}))
		case line == "mention":
			text := c.paste(ctx, "Paste the message that mentions the bot"+c.withPicture()+", then an empty line:")
			c.do(ctx, c.message(botcmd.Request{Kind: botcmd.Mention, Mentioned: true, Text: text}))
		case line == "post":
			text := c.paste(ctx, "Paste the message"+c.withPicture()+", then an empty line:")
			c.do(ctx, c.message(botcmd.Request{Kind: botcmd.Mention, Text: text}))
		case line == "attach" || strings.HasPrefix(line, "attach "):
			c.attach(strings.TrimSpace(strings.TrimPrefix(line, "attach")))
		default:
			fmt.Fprintf(c.out, "I don't understand %q. Type help for help.\n", line)
		}
	}
}

// apps lists the Apps-menu (message) commands, as "app NAME".
func (c *console) apps() []string {
	var names []string
	for _, spec := range c.svc.Specs() {
		if spec.Type == botcmd.MessageAction {
			names = append(names, "app "+spec.Name)
		}
	}
	return names
}

// isApp reports whether name is an Apps-menu command.
func (c *console) isApp(name string) bool {
	for _, spec := range c.svc.Specs() {
		if spec.Type == botcmd.MessageAction && spec.Name == name {
			return true
		}
	}
	return false
}

// request fills in who and where: the console is one user, in one
// channel of one server, with every permission.
func (c *console) request(req botcmd.Request) botcmd.Request {
	c.seq++
	req.ID = fmt.Sprintf("console-%d", c.seq)
	req.UserID, req.UserName = consoleUser, c.user
	if c.as != "" {
		req.UserID, req.UserName = c.as, c.as
	}
	req.GuildID = consoleGuild
	if req.ChannelID == "" {
		req.ChannelID = consoleChannel
	}
	req.Permissions = 1<<3 | 1<<5 // Administrator, Manage Server
	req.Now = c.now()
	return req
}

// now is the console's clock: the time, moved on by "wait".
func (c *console) now() time.Time { return time.Now().Add(c.offset) }

// switchUser makes the console act as name ("me": its own user).
func (c *console) switchUser(name string) {
	id := c.userID(name)
	if name == "" {
		fmt.Fprintln(c.out, "Name the member: as bob (as me: yourself again)")
		return
	}
	if id == consoleUser {
		c.as = ""
		fmt.Fprintf(c.out, "You are %s again.\n", c.user)
		return
	}
	c.as = id
	fmt.Fprintf(c.out, "You are now %s: your commands and clicks are theirs (as me: yourself again).\n", id)
}

// wait moves the console's clock on by a duration ("10m", "15s").
func (c *console) wait(ctx context.Context, arg string) {
	d, err := time.ParseDuration(arg)
	if err != nil || d <= 0 || d > 48*time.Hour {
		fmt.Fprintln(c.out, "Say how long: wait 15s, wait 10m (at most 48h).")
		return
	}
	c.offset += d
	fmt.Fprintf(c.out, "(the console's clock moves on %s)\n", d)
	c.svc.Tick(ctx, c.now())
}

// slash runs "/name opt:value opt:value". An option's value runs to the
// next word that starts another of the command's options, so a puzzle with
// spaces in it stays whole.
func (c *console) slash(ctx context.Context, line string) {
	name, rest, _ := strings.Cut(line, " ")
	known := map[string]botcmd.OptionType{}
	sub := ""
	for _, spec := range c.svc.Specs() {
		if spec.Name != name || spec.Type != botcmd.ChatInput {
			continue
		}
		opts := spec.Options
		// A command with sub-commands (/daily play level:hard) takes the
		// sub-command as its first word, then that sub-command's options.
		if len(opts) > 0 && opts[0].Type == botcmd.OptSubcommand {
			first, after, _ := strings.Cut(strings.TrimSpace(rest), " ")
			var names []string
			for _, o := range opts {
				names = append(names, o.Name)
				if o.Name == first {
					sub, rest, opts = first, after, o.Options
				}
			}
			if sub == "" {
				fmt.Fprintf(c.out, "/%s needs one of: %s (e.g. /%s %s).\n", name, strings.Join(names, ", "), name, names[0])
				return
			}
		}
		for _, o := range opts {
			known[o.Name] = o.Type
		}
	}
	opts := map[string]string{}
	cur := ""
	for _, word := range strings.Fields(rest) {
		if k, v, ok := strings.Cut(word, ":"); ok && known[k] != 0 {
			cur = k
			opts[k] = v
			continue
		}
		if cur == "" {
			fmt.Fprintf(c.out, "%q is not an option of /%s; write options as name:value.\n", word, name)
			return
		}
		opts[cur] += " " + word
	}
	req := botcmd.Request{Kind: botcmd.SlashCommand, Command: name, Subcommand: sub, Options: opts}
	// Discord sends users and channels as ids, resolves a channel with its
	// server, and uploads an attachment: the console does the same with
	// what was typed.
	for k, v := range opts {
		switch known[k] {
		case botcmd.OptUser:
			opts[k] = c.userID(v)
		case botcmd.OptChannel:
			id := c.channelID(v)
			opts[k] = id
			if req.ChannelGuilds == nil {
				req.ChannelGuilds = map[string]string{}
			}
			req.ChannelGuilds[id] = consoleGuild
		case botcmd.OptAttachment:
			data, err := readConsolePicture(strings.TrimSpace(v))
			if err != nil {
				fmt.Fprintf(c.out, "%s: %v\n", k, err)
				return
			}
			req.Images = append(req.Images, data)
		}
	}
	c.do(ctx, c.request(req))
}

// consoleGuild and consoleChannel are where the console's requests come
// from; consoleUser is who sends them.
const (
	consoleGuild   = "console"
	consoleChannel = "console"
	consoleUser    = "console"
)

// userID turns a user typed in an option (@ada, ada, <@ada>, @me) into the
// id the request carries: the name itself, or the console's own user.
func (c *console) userID(v string) string {
	name := strings.TrimSpace(v)
	name = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(name, "<"), "@"), ">")
	name = strings.TrimPrefix(name, "!")
	if name == "" || name == "me" || name == c.user {
		return consoleUser
	}
	return name
}

// channelID turns a channel typed in an option (#general, general,
// <#general>) into its id: the name itself.
func (c *console) channelID(v string) string {
	name := strings.TrimSpace(v)
	name = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(name, "<"), "#"), ">")
	if name == "" {
		name = consoleChannel
	}
	return name
}

// mentionRE matches Discord's mention syntax in a reply: <@id>, <@!id>,
// <@&role>, <#channel>.
// Compiled on first use, as nothing but the console needs it.
var mentionRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<(@[!&]?|#)([\w.-]+)>`) })

// plain writes a reply's mentions as a person reads them in Discord:
// @name and #name.
func (c *console) plain(s string) string {
	s = c.times(s)
	re := mentionRE()
	return re.ReplaceAllStringFunc(s, func(m string) string {
		sub := re.FindStringSubmatch(m)
		kind, id := sub[1], sub[2]
		if kind == "#" {
			return "#" + id
		}
		if id == consoleUser {
			return "@" + c.user
		}
		return "@" + id
	})
}

// timeRE matches Discord's timestamp syntax: <t:unix> and <t:unix:style>.
var timeRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<t:(-?\d+)(?::([tTdDfFR]))?>`) })

// times writes Discord's timestamps as a person's client shows them, on
// the console's clock: "in 1m50s", "10s ago", "14:05".
func (c *console) times(s string) string {
	re := timeRE()
	return re.ReplaceAllStringFunc(s, func(m string) string {
		sub := re.FindStringSubmatch(m)
		sec, err := strconv.ParseInt(sub[1], 10, 64)
		if err != nil {
			return m
		}
		at := time.Unix(sec, 0)
		switch sub[2] {
		case "R":
			d := at.Sub(c.now()).Round(time.Second)
			if d >= 0 {
				return "in " + d.String()
			}
			return (-d).String() + " ago"
		case "t", "T", "":
			return at.Local().Format("15:04:05")
		}
		return at.Local().Format("2 Jan 2006 15:04")
	})
}

// attach holds the picture at path for the next message.
func (c *console) attach(path string) {
	if path == "" {
		fmt.Fprintln(c.out, "Name the picture: attach board.png")
		return
	}
	data, err := readConsolePicture(path)
	if err != nil {
		fmt.Fprintf(c.out, "attach: %v\n", err)
		return
	}
	c.attached, c.attachedName = data, filepath.Base(path)
	fmt.Fprintf(c.out, "%s will go with your next message (mention, post or app).\n", c.attachedName)
}

// withPicture says, in a paste prompt, that the attached picture goes too.
func (c *console) withPicture() string {
	if c.attached == nil {
		return ""
	}
	return " (" + c.attachedName + " goes with it)"
}

// message fills in a message request and hands it the attached picture,
// which goes with this one message only.
func (c *console) message(req botcmd.Request) botcmd.Request {
	if c.attached != nil {
		req.Images = [][]byte{c.attached}
		c.attached, c.attachedName = nil, ""
	}
	return c.request(req)
}

// readConsolePicture reads a picture file for an attachment, refusing
// what the bot would refuse before opening it.
func readConsolePicture(path string) ([]byte, error) {
	if path == "" || path == "-" {
		return nil, errors.New("name a picture file, e.g. image:board.png")
	}
	data, err := readPicture(path, nil)
	if err != nil {
		return nil, err
	}
	if len(data) > vision.MaxBytes {
		return nil, fmt.Errorf("%s is over %d MB; the bot refuses pictures that big", path, vision.MaxBytes>>20)
	}
	if !isPicture(data) {
		return nil, fmt.Errorf("%s is not a PNG, JPEG or WebP picture", path)
	}
	return data, nil
}

func (c *console) click(ctx context.Context, arg string) {
	buttons, msg := c.buttons, c.buttonsMsg
	if first, rest, ok := strings.Cut(arg, " "); ok && strings.HasPrefix(first, "m") {
		m, known := c.messages[first]
		if !known {
			fmt.Fprintf(c.out, "No message %q here.\n", first)
			return
		}
		buttons, msg, arg = m.buttons, first, strings.TrimSpace(rest)
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n < 1 || n > len(buttons) {
		fmt.Fprintf(c.out, "No button %q: that message has %d.\n", arg, len(buttons))
		return
	}
	b := buttons[n-1]
	fmt.Fprintf(c.out, "(clicked %s)\n", b.Label)
	req := botcmd.Request{Kind: botcmd.Component, CustomID: b.CustomID, MessageID: msg}
	if m, ok := c.messages[msg]; ok {
		req.ChannelID = m.channel // a button in a thread is pressed there
	}
	c.do(ctx, c.request(req))
}

// readLines sends the scanner's lines until the input ends or done is
// closed.
func readLines(in *bufio.Scanner, done <-chan struct{}) <-chan string {
	lines := make(chan string)
	go func() {
		defer close(lines)
		for in.Scan() {
			select {
			case lines <- in.Text():
			case <-done:
				return
			}
		}
	}()
	return lines
}

// readLine waits for the next line; false at the end of input or when ctx
// ends (Ctrl-C).
func (c *console) readLine(ctx context.Context) (string, bool) {
	select {
	case line, ok := <-c.lines:
		return line, ok
	case <-ctx.Done():
		return "", false
	}
}

// paste reads lines up to an empty one (or the end of input). Newspaper
// grids often leave an empty line between bands, so an empty line after the
// top of a grid (lines of digits and rules that don't read as a whole grid
// yet) is kept, and a second empty line ends the paste.
func (c *console) paste(ctx context.Context, prompt string) string {
	fmt.Fprintln(c.out, prompt)
	var lines []string
	blank := false
	for {
		line, ok := c.readLine(ctx)
		if !ok {
			break
		}
		if strings.TrimSpace(line) == "" {
			if blank || !partGrid(lines) {
				break
			}
			blank = true
			lines = append(lines, line)
			fmt.Fprintf(c.out, "(%s of a grid so far: paste the rest, or another empty line to send it as it is)\n",
				botcmd.Plural(gridRows(lines), "row", "rows"))
			continue
		}
		blank = false
		lines = append(lines, line)
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// partGrid reports whether lines look like the top of a grid that goes on
// after an empty line: only digits, blanks and rules, and not yet a whole
// grid.
func partGrid(lines []string) bool {
	if len(lines) == 0 {
		return false
	}
	for _, l := range lines {
		for _, r := range l {
			if !unicode.IsDigit(r) && !unicode.IsSpace(r) && !strings.ContainsRune(".*_-+|,;", r) && !(r >= 0x2500 && r <= 0x257F) {
				return false
			}
		}
	}
	_, err := sudoku.Parse(strings.Join(lines, "\n"))
	return err != nil
}

// gridRows counts the lines of a partial grid that hold a cell (not only
// rules or spaces).
func gridRows(lines []string) int {
	n := 0
	for _, l := range lines {
		if strings.IndexFunc(l, func(r rune) bool { return unicode.IsDigit(r) || r == '.' || r == '_' || r == '*' }) >= 0 {
			n++
		}
	}
	return n
}

// do runs req under the deadline, as the bot would, and shows the reply.
// A modal is filled in at the prompt and submitted.
func (c *console) do(ctx context.Context, req botcmd.Request) {
	if ctx.Err() != nil {
		return // Ctrl-C while pasting: leave without an answer
	}
	plan := c.svc.Plan(ctx, req)
	if plan.Ignore {
		fmt.Fprintln(c.out, "(the bot stays quiet)")
		return
	}
	rctx, cancel := ctx, context.CancelFunc(func() {})
	if plan.Heavy {
		rctx, cancel = context.WithTimeout(ctx, c.timeout)
	}
	r := c.svc.Handle(rctx, req)
	cancel()
	if r.Modal != nil {
		fields := map[string]string{}
		for _, in := range r.Modal.Inputs {
			if in.Paragraph {
				fields[in.CustomID] = c.paste(ctx, in.Label+" — paste it, then an empty line:")
			} else {
				fmt.Fprintf(c.out, "%s: ", in.Label)
				fields[in.CustomID], _ = c.readLine(ctx)
			}
		}
		c.do(ctx, c.request(botcmd.Request{Kind: botcmd.ModalSubmit, CustomID: r.Modal.CustomID, Fields: fields,
			MessageID: req.MessageID, ChannelID: req.ChannelID}))
		return
	}
	c.reply(req, r)
}

// reply shows r, the answer to req: an update keeps the message the
// button is on; any other reply is a new message in req's channel.
func (c *console) reply(req botcmd.Request, r botcmd.Response) {
	id := req.MessageID
	if !r.Update || id == "" {
		c.msgs++
		id = fmt.Sprintf("m%d", c.msgs)
	}
	c.remember(id, req.ChannelID, r, id != req.MessageID)
	c.show(r)
}

// remember notes message id in channel with r's buttons, and makes them
// the ones "click N" presses; a new public message with buttons says its
// id, for "click m3 1".
func (c *console) remember(id, channel string, r botcmd.Response, isNew bool) {
	if c.messages == nil {
		c.messages = map[string]consoleMessage{}
	}
	buttons := botcmd.LayoutButtons(r.Blocks)
	for _, row := range r.Components {
		buttons = append(buttons, row.Buttons...)
	}
	if len(buttons) > 0 || r.Update {
		c.buttonsMsg = id
	}
	if isNew && len(buttons) > 0 && !r.Ephemeral {
		fmt.Fprintf(c.out, "[message %s in #%s]\n", id, channel)
	}
	c.messages[id] = consoleMessage{channel: channel, buttons: buttons}
}

// consoleChannels prints what the bot posts and edits on its own (a race's
// scoreboard, its results) and makes threads as names.
type consoleChannels struct{ c *console }

func (cc consoleChannels) Post(ctx context.Context, channelID string, r botcmd.Response) (string, error) {
	c := cc.c
	c.msgs++
	id := fmt.Sprintf("m%d", c.msgs)
	fmt.Fprintf(c.out, "(the bot posts in #%s:)\n", channelID)
	buttons, msg := c.buttons, c.buttonsMsg
	c.remember(id, channelID, r, true)
	c.elsewhere = id
	c.show(r)
	c.elsewhere = ""
	c.buttons, c.buttonsMsg = buttons, msg // "click N" stays on the last reply
	return id, nil
}

func (cc consoleChannels) Edit(ctx context.Context, channelID, messageID string, r botcmd.Response) error {
	c := cc.c
	fmt.Fprintf(c.out, "(the bot edits message %s in #%s to:)\n", messageID, channelID)
	r.Update = false
	buttons, msg := c.buttons, c.buttonsMsg
	c.remember(messageID, channelID, r, false)
	c.elsewhere = messageID
	c.show(r)
	c.elsewhere = ""
	c.buttons, c.buttonsMsg = buttons, msg // "click N" stays on the last reply
	return nil
}

func (cc consoleChannels) StartThread(ctx context.Context, channelID, messageID, name string) (string, error) {
	c := cc.c
	c.threads++
	id := fmt.Sprintf("thread-%d", c.threads)
	fmt.Fprintf(c.out, "(the bot makes a thread %q from message %s: #%s)\n", name, messageID, id)
	return id, nil
}

// show prints a reply and saves its files.
func (c *console) show(r botcmd.Response) {
	if r.Content == "" && len(r.Embeds) == 0 && len(r.Files) == 0 && len(r.Components) == 0 && len(r.Blocks) == 0 {
		fmt.Fprintln(c.out, "(no reply)")
		return
	}
	switch {
	case r.Update:
		fmt.Fprintln(c.out, "(the message is edited to:)")
	case r.Ephemeral:
		fmt.Fprintln(c.out, "(only you can see this)")
	}
	if len(r.Blocks) > 0 {
		// A Components V2 layout: Discord shows neither content nor
		// embeds beside it, so neither does the console.
		r.Content, r.Embeds = "", nil
		for _, l := range botcmd.LayoutLines(r.Blocks) {
			fmt.Fprintln(c.out, c.plain(l))
		}
		r.Components = append([]botcmd.ActionRow{{Buttons: botcmd.LayoutButtons(r.Blocks)}}, r.Components...)
	}
	if r.Content != "" {
		fmt.Fprintln(c.out, c.plain(r.Content))
	}
	saved := map[string]string{}
	for _, f := range r.Files {
		path := filepath.Join(c.dir, fmt.Sprintf("%03d-%s", c.seq, filepath.Base(f.Name)))
		if err := os.WriteFile(path, f.Data, 0o644); err != nil {
			fmt.Fprintf(c.out, "[could not save %s: %v]\n", f.Name, err)
			continue
		}
		saved[f.Name] = path
	}
	for _, e := range r.Embeds {
		if e.Title != "" {
			fmt.Fprintf(c.out, "== %s ==\n", c.plain(e.Title))
		}
		if e.Description != "" {
			fmt.Fprintln(c.out, c.plain(e.Description))
		}
		for _, f := range e.Fields {
			fmt.Fprintf(c.out, "%s: %s\n", c.plain(f.Name), c.plain(f.Value))
		}
		if e.Image != "" {
			name := strings.TrimPrefix(e.Image, "attachment://")
			fmt.Fprintf(c.out, "[image: %s]\n", saved[name])
			delete(saved, name)
		}
		if e.Footer != "" {
			fmt.Fprintf(c.out, "-- %s\n", c.plain(e.Footer))
		}
	}
	for _, f := range r.Files {
		if path, ok := saved[f.Name]; ok {
			fmt.Fprintf(c.out, "[file: %s]\n", path)
		}
	}
	// A reply without buttons leaves the last buttons clickable (they are
	// still on their message), unless it replaced that message.
	if len(r.Components) > 0 || r.Update {
		c.buttons = nil
		for _, row := range r.Components {
			c.buttons = append(c.buttons, row.Buttons...)
		}
	}
	if len(c.buttons) > 0 && len(r.Components) > 0 {
		var parts []string
		for i, b := range c.buttons {
			parts = append(parts, fmt.Sprintf("[%d] %s", i+1, b.Label))
		}
		how := "click N"
		if c.elsewhere != "" {
			how = "click " + c.elsewhere + " N"
		}
		fmt.Fprintf(c.out, "buttons: %s   (%s)\n", strings.Join(parts, "  "), how)
	}
	for _, f := range r.FollowUps {
		c.show(f)
	}
}
