package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sudokubot/render"
)

const consolePuzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
const consoleSolution = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"

// runConsoleTest feeds input to the console and returns what it printed.
func runConsoleTest(t *testing.T, input string, args ...string) (string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	dir := t.TempDir()
	code := Run(context.Background(), append([]string{"console", "-out", dir}, args...), IO{
		Stdin: strings.NewReader(input), Stdout: &out, Stderr: &errOut,
	})
	if code != 0 {
		t.Fatalf("console exit code %d, stderr:\n%s", code, errOut.String())
	}
	return out.String(), dir
}

func TestConsole(t *testing.T) {
	grid := func(line string) string {
		var b strings.Builder
		for r := 0; r < 9; r++ {
			b.WriteString(strings.Join(strings.Split(line[r*9:r*9+9], ""), " ") + "\n")
		}
		return b.String()
	}
	bands := func(g string) string {
		rows := strings.Split(strings.TrimSuffix(g, "\n"), "\n")
		return strings.Join(rows[:3], "\n") + "\n\n" + strings.Join(rows[3:6], "\n") + "\n\n" + strings.Join(rows[6:], "\n") + "\n"
	}
	tests := []struct {
		name  string
		input string
		want  []string
	}{
		{"solve with options", "/solve puzzle:" + consolePuzzle + " output:text\nquit\n",
			[]string{"== Solved · 9x9 · 30 clues ==", "`" + consoleSolution + "`", "```"}},
		{"puzzle with spaces", "/solve output:text puzzle:" + grid(consolePuzzle)[:20] + "\n",
			[]string{"couldn't read", "(only you can see this)"}},
		{"modal paste", "/solve\n" + grid(consolePuzzle) + "\n", []string{"paste it, then an empty line", consoleSolution}},
		// A newspaper grid with an empty line between bands: the paste goes
		// on until the grid is whole.
		{"paste with empty lines between bands", "/solve\n" + bands(grid(consolePuzzle)) + "\n",
			[]string{consoleSolution}},
		// An empty line after text that is no grid ends the paste at once.
		{"moves-like paste ends at one empty line", "mention\n<@1> A1 5\n\n/help\n", []string{"== Sudoku bot =="}},
		{"private", "/solve private:true puzzle:" + consolePuzzle + "\n", []string{"(only you can see this)", consoleSolution}},
		{"app command", "app Check Sudoku\n" + consolePuzzle + "\n\n", []string{"Solutions: 1"}},
		{"mention", "mention\n<@123>\n" + grid(consolePuzzle) + "\n", []string{consoleSolution}},
		{"watched post and click", "/watch mode:on\npost\n" + grid(consolePuzzle) + "\nclick 1\n",
			[]string{"I'm now watching", "buttons: [1] Solve  [2] Hint  [3] Check", "(clicked Solve)", consoleSolution}},
		{"unwatched post", "post\nhello\n\n", []string{"(the bot stays quiet)"}},
		{"no such button", "click 4\n", []string{`No button "4"`}},
		{"bad option", "/solve colour:red\n", []string{`"colour:red" is not an option of /solve`}},
		{"unknown", "frobnicate\n", []string{`I don't understand "frobnicate"`}},
		{"help", "help\n", []string{"click 2", "/solve puzzle:", "/play", "/daily", "/watch", "live in memory"}},
		{"app with a wrong name", "app Solve it\n" + consolePuzzle + "\n",
			[]string{`No Apps-menu command "Solve it": try app Solve Sudoku, app Sudoku hint, app Check Sudoku.`, `I don't understand "` + consolePuzzle + `"`}},
		{"slash help", "/help\n", []string{"== Sudoku bot =="}},
		{"sub-command", "/daily play level:easy\n", []string{"== Daily #", "· easy ==", "[1] Enter moves"}},
		{"sub-command missing", "/daily\n", []string{"/daily needs one of: play, leaderboard, stats, setup"}},
		{"sub-command bad option", "/daily stats colour:red\n", []string{`"colour:red" is not an option of /daily`}},
		// A paste that stops at an empty line in the middle of a grid says
		// what it waits for; another empty line sends what there is.
		{"partial grid says what it waits for", "/solve\n" + strings.Join(strings.Split(grid(consolePuzzle), "\n")[:3], "\n") + "\n\n\n",
			[]string{"(3 rows of a grid so far: paste the rest, or another empty line to send it as it is)", "found 3 rows"}},
		{"daily setup", "/daily setup channel:#general hour:9\n/daily setup\n",
			[]string{"posted in #general every day at 09:00 UTC", "The daily puzzles are posted in #general at 09:00 UTC."}},
		{"user mention", "/daily stats user:@someone\n", []string{"@someone hasn't solved a daily yet."}},
		{"user me", "/daily stats user:@me\n", []string{"You haven't solved a daily yet."}},
		{"no picture", "/solve image:/does/not/exist.png\n", []string{"image: open /does/not/exist.png: no such file"}},
		{"attach nothing", "attach\n", []string{"Name the picture: attach board.png"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _ := runConsoleTest(t, tt.input)
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("console output for %q:\n%s\nwant it to contain %q", tt.input, out, w)
				}
			}
			// Discord's mention syntax is written as a person reads it.
			if strings.Contains(out, "<@") || strings.Contains(out, "<#") {
				t.Errorf("console output for %q shows a raw mention:\n%s", tt.input, out)
			}
		})
	}
}

// TestConsolePictures: a picture goes with a slash command (image:FILE) or,
// attached, with the next message, and is read as the bot reads one.
func TestConsolePictures(t *testing.T) {
	path := mustBoardPNG(t, consolePuzzle, render.Light)
	for _, input := range []string{
		"/solve image:" + path + "\n",
		"attach " + path + "\nmention\nwhat is this one?\n\n",
		"attach " + path + "\napp Solve Sudoku\n\n",
	} {
		out, _ := runConsoleTest(t, input)
		if !strings.Contains(out, "Read from your picture") || !strings.Contains(out, consoleSolution) {
			t.Errorf("console output for %q:\n%s\nwant the picture read and solved", input, out)
		}
	}
	// The picture goes with one message only.
	out, _ := runConsoleTest(t, "attach "+path+"\nmention\nhello\n\nmention\nhello again\n\n")
	if strings.Count(out, "Read from your picture") != 1 {
		t.Errorf("attach, then two mentions:\n%s\nwant the picture read once", out)
	}
}

// TestConsoleSavesFiles checks that every file a reply carries lands in the
// output folder and that its path is printed.
func TestConsoleSavesFiles(t *testing.T) {
	out, dir := runConsoleTest(t, "/solve puzzle:"+consolePuzzle+"\n")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if !strings.Contains(out, path) {
			t.Errorf("saved %s but did not print its path:\n%s", path, out)
		}
		if info, _ := e.Info(); info.Size() == 0 {
			t.Errorf("%s is empty", path)
		}
	}
	if len(entries) == 0 && !strings.Contains(out, "```") {
		t.Errorf("no image saved and no text board shown:\n%s", out)
	}
}

func TestConsoleTimeoutFlag(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Run(context.Background(), []string{"console", "-out", t.TempDir()}, IO{
		Stdin: strings.NewReader("/help\n"), Stdout: &out, Stderr: &errOut,
		Getenv: func(k string) string {
			if k == "SOLVE_TIMEOUT" {
				return "soon"
			}
			return ""
		},
	})
	if code != 2 || !strings.Contains(errOut.String(), `SOLVE_TIMEOUT="soon"`) {
		t.Errorf("console with SOLVE_TIMEOUT=soon: code %d, stderr %q", code, errOut.String())
	}
	out.Reset()
	code = Run(context.Background(), []string{"console", "-out", t.TempDir(), "-timeout", "2s"}, IO{
		Stdin: strings.NewReader("/help\n"), Stdout: &out, Stderr: &errOut,
	})
	if code != 0 || !strings.Contains(out.String(), "at most 2 s") {
		t.Errorf("console -timeout 2s: code %d, output:\n%s", code, out.String())
	}
}

func TestConsoleRemovesItsImageFolder(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Run(context.Background(), []string{"console"}, IO{
		Stdin: strings.NewReader("/generate size:4 level:easy\nquit\n"), Stdout: &out, Stderr: &errOut,
	})
	if code != 0 {
		t.Fatalf("console exit code %d, stderr:\n%s", code, errOut.String())
	}
	_, rest, ok := strings.Cut(out.String(), "images go to ")
	dir, _, _ := strings.Cut(rest, " (removed when you quit")
	if !ok || dir == "" || !strings.Contains(out.String(), "[image: "+dir) {
		t.Fatalf("console did not say where images go, or saved none there:\n%s", out.String())
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("image folder %s still there after quit (stat: %v)", dir, err)
	}
}

func TestHelpFlags(t *testing.T) {
	for _, arg := range []string{"help", "-h", "-help", "--help"} {
		var out, errOut bytes.Buffer
		code := Run(context.Background(), []string{arg}, IO{Stdout: &out, Stderr: &errOut})
		if code != 0 {
			t.Errorf("sudokubot %s = exit %d, want 0", arg, code)
		}
		for _, want := range []string{"console", "solve", "rate", "generate", "render", "daily"} {
			if !strings.Contains(out.String(), "  "+want+" ") {
				t.Errorf("sudokubot %s does not list %q:\n%s", arg, want, out.String())
			}
		}
	}
}

// TestConsoleCtrlC cancels the context (as Ctrl-C does through main) while
// the console waits for a line that never comes: it must return at once and
// remove its image folder.
func TestConsoleCtrlC(t *testing.T) {
	stdin, w := io.Pipe()
	defer w.Close()
	var out syncBuf
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() { done <- Run(ctx, []string{"console"}, IO{Stdin: stdin, Stdout: &out, Stderr: &out}) }()

	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "> ") {
		if time.Now().After(deadline) {
			t.Fatalf("no prompt after 10 s:\n%s", out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit code %d after Ctrl-C, want 0", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("console still waiting for input 5 s after Ctrl-C")
	}
	_, rest, _ := strings.Cut(out.String(), "images go to ")
	dir, _, _ := strings.Cut(rest, " (removed when you quit")
	if _, err := os.Stat(dir); dir == "" || !os.IsNotExist(err) {
		t.Errorf("image folder %q still there after Ctrl-C (stat: %v)", dir, err)
	}
}

// TestConsoleRace: a race played at the console by two members (as bob,
// as me): the lobby, the thread and its scoreboard, boards, the moves,
// idle marking after "wait", the results.
func TestConsoleRace(t *testing.T) {
	var moves []string
	for i := range 81 {
		if consolePuzzle[i] == '.' {
			moves = append(moves, fmt.Sprintf("%c%d %c", 'A'+i/9, i%9+1, consoleSolution[i]))
		}
	}
	input := strings.Join([]string{
		"/race puzzle:" + consolePuzzle,
		"as bob", "click m1 1", "click m1 3", "as me", "click m1 3",
		"click 1",  // Play, before the countdown ends
		"wait 11s", // the countdown
		"click 1",  // Play
		"click 1",  // Enter moves
		strings.Join(moves[:10], ", "), "",
		"as bob", "click m4 1", // bob's Play on the scoreboard
		"click 1", "A3 1", "",
		"as me", "click m1 1", "click 1", strings.Join(moves[10:], ", "), "",
		"wait 11m", "as nobody", "click m1 1", "as", "quit",
	}, "\n") + "\n"
	out, _ := runConsoleTest(t, input)
	for _, want := range []string{
		"buttons: [1] Join  [2] Leave  [3] Start   (click m1 N)\n(only you can see this)\nYour race's lobby is the message above", // the lobby posted, /race's answer private
		"(the message is edited to:)\n┃ (#5865f2)\n┃ ## Race · Pasted 9x9\n",                                                      // bob's Join: the lobby's V2 card, said to be an edit first
		"you starts this race; if they don't, anyone in it may in ",                                                               // bob's early Start
		`(the bot makes a thread "Race · Pasted 9x9" from message m1: #thread-1)`,
		"(the bot posts in #thread-1:)",
		"buttons: [1] Play  [2] Leave   (click m4 N)",
		"The race starts in ", ": press Play again then.", // 9s or 10s: timestamps are whole seconds
		"1. **you** — 10 of 51 cells · no mistakes",
		"2. **bob** — 1 of 51 cells · 1 mistake",
		"You finished the race in 0:0", // the console's clock is the wall clock
		"! The scoreboard in the thread has everyone's progress.",
		"(the console's clock moves on 11m0s)",
		"┃ ## Race · Pasted 9x9 · results\n┃ In finishing order, with each one's time:\n┃ ────────\n┃ 1. **you** 0:0",
		" · no mistakes · no hints · no checks\n┃ – **bob** idle (1 of 51 cells)",
		"You are now nobody",
		"This race is over. Open a new one with /race.",
		"Name the member: as bob",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("console race:\n%s\nwant %q", out, want)
		}
	}
}
