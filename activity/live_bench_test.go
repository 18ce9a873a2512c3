package activity

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"sudokubot/commands"
)

// BenchmarkLiveRoundTrip200: 200 players in 50 rooms (Activity
// instances) of 4, each room on its co-op board, one process on SQLite,
// over loopback. Every player makes a move every 400 ms (500 moves a
// second in all, as BenchmarkMoveRoundTrip200); a round trip is from the
// tap (the move's HTTP request) until another player's socket shows it:
// validated, stored, announced, loaded and sent. p50 and p99 are over
// every (move, other player) pair; b.N moves in all.
//
//	go test ./activity -run '^$' -bench LiveRoundTrip200 -benchtime 3000x
func BenchmarkLiveRoundTrip200(b *testing.B) {
	const (
		rooms   = 50
		perRoom = 4
		pace    = 400 * time.Millisecond
	)
	e := newLiveEnv(b, Config{RatePerMinute: 1 << 30, RateBurst: 1 << 30})
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: rooms * perRoom}}
	type pending struct {
		t0    time.Time
		cell  int
		notes uint32
		left  map[int]bool // the players yet to see it
	}
	type room struct {
		mu      sync.Mutex
		pending []*pending
	}
	type seat struct {
		room  *room
		index int // in its room
		token string
		url   string
		cell  int
		conn  *websocket.Conn
	}
	var (
		mu    sync.Mutex
		times []time.Duration
	)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var seats []*seat
	var readers sync.WaitGroup
	for r := range rooms {
		rm := &room{}
		var game commands.BoardView
		for i := range perRoom {
			who := commands.Player{UserID: fmt.Sprintf("%d", 1000+r*perRoom+i), UserName: fmt.Sprintf("p%d.%d", r, i)}
			a := e.join(b, e.localToken(who), fmt.Sprintf("room%d", r), "coop")
			if a.status != 200 {
				b.Fatalf("join: %d %s", a.status, a.Error)
			}
			game = a.Game
			s := &seat{room: rm, index: i, token: a.Token, url: fmt.Sprintf("%s/api/games/%d/move", e.url, game.ID), cell: emptyCells(game)[i]}
			conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(e.url, "http")+"/api/live", nil)
			if err != nil {
				b.Fatal(err)
			}
			conn.SetReadLimit(1 << 20)
			hello, _ := json.Marshal(helloFor(a.Token, game.ID))
			if err := conn.Write(ctx, websocket.MessageText, hello); err != nil {
				b.Fatal(err)
			}
			s.conn = conn
			seats = append(seats, s)
			readers.Add(1)
			go func() {
				defer readers.Done()
				for {
					_, data, err := conn.Read(ctx)
					if err != nil {
						return
					}
					at := time.Now()
					var m struct {
						Game struct {
							Notes []uint32 `json:"notes"`
						} `json:"game"`
					}
					if json.Unmarshal(data, &m) != nil {
						continue
					}
					rm.mu.Lock()
					for _, p := range rm.pending {
						if p.left[s.index] && p.cell < len(m.Game.Notes) && m.Game.Notes[p.cell] == p.notes {
							delete(p.left, s.index)
							mu.Lock()
							times = append(times, at.Sub(p.t0))
							mu.Unlock()
						}
					}
					rm.pending = slices.DeleteFunc(rm.pending, func(p *pending) bool { return len(p.left) == 0 })
					rm.mu.Unlock()
				}
			}()
		}
	}
	b.ResetTimer()
	var wg sync.WaitGroup
	for k, s := range seats {
		n := b.N / len(seats)
		if k < b.N%len(seats) {
			n++
		}
		wg.Go(func() {
			next := time.Now().Add(pace * time.Duration(k) / time.Duration(len(seats)))
			for i := range n {
				time.Sleep(time.Until(next))
				next = next.Add(pace)
				notes := uint32(1 + i%500)
				p := &pending{t0: time.Now(), cell: s.cell, notes: notes, left: map[int]bool{}}
				for j := range perRoom {
					if j != s.index {
						p.left[j] = true
					}
				}
				s.room.mu.Lock()
				s.room.pending = append(s.room.pending, p)
				s.room.mu.Unlock()
				if err := postMove(client, s.url, s.token, fmt.Sprintf(`{"cell":%d,"kind":"notes","notes":%d}`, s.cell, notes)); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	// The last moves' echoes: wait (briefly) for them to land.
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		mu.Lock()
		got := len(times)
		mu.Unlock()
		if got >= b.N*(perRoom-1) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	b.StopTimer()
	mu.Lock()
	seen := len(times)
	reportPercentiles(b, times)
	mu.Unlock()
	b.ReportMetric(float64(seen)/float64(b.N*(perRoom-1)), "seen/sent")
	cancel()
	for _, s := range seats {
		s.conn.CloseNow()
	}
	readers.Wait()
}
