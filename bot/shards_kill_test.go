package bot

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"sudokubot/commands"
	"sudokubot/internal/fakediscord"
	"sudokubot/store"
)

// killChildEnv, when set (to the fake's URL), makes TestKilledShardProcess
// act as the child: a bot process running shards 2 and 3 of 4 on the
// database in DATABASE_URL_TEST, until it is killed.
const killChildEnv = "SUDOKUBOT_TEST_SHARD_CHILD"

// TestKilledShardProcess kills (SIGKILL, no shutdown) a real process that
// runs shards 2 and 3 while a player is mid-game on them: the other
// process keeps serving its shards, and a new process on the same shards
// finds the game as the last answered move left it.
func TestKilledShardProcess(t *testing.T) {
	if fakeURL := os.Getenv(killChildEnv); fakeURL != "" {
		runShardChild(t, fakeURL)
		return
	}
	if testing.Short() {
		t.Skip("starts a child process")
	}
	url := pgTestURL(t)
	const n = 4
	gA, gB := fakediscord.GuildOnShard(1, n, 0), fakediscord.GuildOnShard(2, n, 0)
	fake := fakediscord.New(t, fakediscord.Options{Token: testToken, Guilds: []string{gA, gB}})
	fake.SetShards(n, 1)
	a := startProcess(t, fake, url, ShardSet{IDs: []int{0, 1}, Count: n})
	child := startShardChild(t, fake, url)
	pb := &playBot{tb: t, fake: fake, logs: &syncBuffer{}}
	dave := fakediscord.User{ID: "14", Username: "dave", Discriminator: "0"}

	c := pb.slash(dave, gB, "daily", fakediscord.Sub("play", fakediscord.Str("level", "medium")))
	id, puzzle := game(t, c)
	solution := solutionOf(t, puzzle)
	blank := strings.IndexByte(puzzle, '.')
	pb.submitMoves(dave, gB, id, fillMoves(puzzle[:blank+1], solution[:blank+1]))

	if err := child.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	child.Wait()
	if !fake.WaitShardsDown(waitLong, 2, 3) {
		t.Fatal("shard 2 still looks connected after the kill")
	}
	// The survivor keeps serving its shards.
	if c := pb.slash(dave, gA, "daily", fakediscord.Sub("stats")); text(c) == "" || a.h.count(gA) != 1 {
		t.Errorf("the surviving process answered %q (served %d), want an answer", text(c), a.h.count(gA))
	}
	// A new process takes shards 2 and 3 over and finds the game.
	b := startProcess(t, fake, url, ShardSet{IDs: []int{2, 3}, Count: n})
	g, err := b.st.DailyGame(context.Background(), dave.ID, time.Now(), "medium")
	if err != nil || g.Moves != 1 || g.Status != store.Playing {
		t.Fatalf("dave's game after the kill = moves %d status %s, %v; want the answered move kept", g.Moves, g.Status, err)
	}
	_, done := pb.submitMoves(dave, gB, id, fillMoves(puzzle, solution))
	if !strings.Contains(text(done), "Solved") {
		t.Errorf("finishing on the new process answered %q", text(done))
	}
}

// startShardChild runs this test binary as a bot process for shards 2-3
// and waits until it says it is ready.
func startShardChild(t *testing.T, fake *fakediscord.Server, url string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledShardProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), killChildEnv+"="+fake.URL(), "DATABASE_URL_TEST_SCHEMA_URL="+url)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if sc.Text() == "shard child ready" {
				ready <- true
				return
			}
		}
		ready <- false
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatal("the child process ended before it was ready")
		}
	case <-time.After(2 * waitLong):
		t.Fatal("the child process never got ready")
	}
	if !fake.WaitShards(waitLong, 2, 3) {
		t.Fatal("the child's shards are not connected")
	}
	return cmd
}

// runShardChild is the child's body: a bot for shards 2 and 3 of 4 that
// serves until the parent kills it.
func runShardChild(t *testing.T, fakeURL string) {
	st, err := store.OpenPostgres(context.Background(), os.Getenv("DATABASE_URL_TEST_SCHEMA_URL"))
	if err != nil {
		t.Fatalf("child: %v", err)
	}
	svc := commands.New(commands.Config{SolveTimeout: 2 * time.Second, Settings: st, Games: st, Puzzles: testPuzzles{}})
	cfg := Config{Token: testToken, APIBase: fakeURL, SolveTimeout: 2 * time.Second, RateBurst: 1 << 20, RatePerMinute: 1 << 20}
	cfg.Shards = ShardSet{IDs: []int{2, 3}, Count: 4}
	b, err := New(cfg, svc, log.New(io.Discard, "", 0))
	if err != nil {
		t.Fatalf("child: %v", err)
	}
	b.identifyWait = func(context.Context, time.Duration) error { return nil }
	b.SetDatabase(st)
	go b.Run(context.Background())
	for b.readiness(context.Background()) != nil {
		time.Sleep(5 * time.Millisecond)
	}
	fmt.Println("shard child ready")
	select {} // until killed
}
