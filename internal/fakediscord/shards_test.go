package fakediscord

import (
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// dialShard connects and identifies as shard of count, returning the
// connection and the guild ids READY listed.
func dialShard(t *testing.T, s *Server, shard, count int) (*websocket.Conn, []string) {
	t.Helper()
	ws := openGateway(t, s)
	ws.WriteJSON(map[string]any{"op": 2, "d": map[string]any{"token": "Bot tok", "intents": 513, "shard": []int{shard, count}}})
	var ready struct {
		T string `json:"t"`
		D struct {
			Guilds []struct{ ID string } `json:"guilds"`
			Shard  []int                 `json:"shard"`
		} `json:"d"`
	}
	if err := ws.ReadJSON(&ready); err != nil || ready.T != "READY" || len(ready.D.Shard) != 2 || ready.D.Shard[0] != shard {
		t.Fatalf("shard %d: READY = %+v, %v", shard, ready, err)
	}
	var ids []string
	for _, g := range ready.D.Guilds {
		ids = append(ids, g.ID)
	}
	return ws, ids
}

func TestShardRouting(t *testing.T) {
	g0, g1, g1b := GuildOnShard(0, 2, 0), GuildOnShard(1, 2, 0), GuildOnShard(1, 2, 3)
	for g, want := range map[string]int{g0: 0, g1: 1, g1b: 1, "500": 0, "": 0, "x": 0} {
		if got := ShardOf(g, 2); got != want {
			t.Errorf("ShardOf(%q, 2) = %d, want %d", g, got, want)
		}
	}
	s := New(t, Options{Token: "tok", Guilds: []string{g0, g1, g1b}})
	s.SetShards(2, 2)
	if got := s.gatewayBot(); got["shards"] != 2 || got["session_start_limit"].(map[string]any)["max_concurrency"] != 2 {
		t.Errorf("/gateway/bot = %v, want 2 shards, max_concurrency 2", got)
	}
	ws0, guilds0 := dialShard(t, s, 0, 2)
	ws1, guilds1 := dialShard(t, s, 1, 2)
	if len(guilds0) != 1 || guilds0[0] != g0 || len(guilds1) != 2 {
		t.Errorf("READY guilds: shard 0 %v, shard 1 %v; want [%s] and [%s %s]", guilds0, guilds1, g0, g1, g1b)
	}
	for _, ev := range []struct {
		guild string
		ws    *websocket.Conn
	}{{g1, ws1}, {g0, ws0}, {"", ws0}, {g1b, ws1}} {
		d := map[string]any{"id": "7"}
		if ev.guild != "" {
			d["guild_id"] = ev.guild
		}
		if err := s.Dispatch("MESSAGE_CREATE", d); err != nil {
			t.Fatal(err)
		}
		ev.ws.SetReadDeadline(time.Now().Add(5 * time.Second))
		var got struct {
			T string `json:"t"`
			D struct {
				GuildID string `json:"guild_id"`
			} `json:"d"`
		}
		if err := ev.ws.ReadJSON(&got); err != nil || got.T != "MESSAGE_CREATE" || got.D.GuildID != ev.guild {
			t.Errorf("event of guild %q: got %+v, %v on the wrong connection", ev.guild, got, err)
		}
	}
	if n := len(s.Routed()); n != 4 {
		t.Errorf("Routed has %d events, want 4", n)
	}
	// A shard id out of range, or another count, is refused (close 4010).
	ws, _, err := websocket.DefaultDialer.Dial(s.wsURL()+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ws.ReadJSON(&hello{})
	ws.WriteJSON(map[string]any{"op": 2, "d": map[string]any{"token": "Bot tok", "shard": []int{1, 3}}})
	if _, _, err := ws.ReadMessage(); !websocket.IsCloseError(err, 4010) {
		t.Errorf("identify with shard [1,3] after [.,2]: %v, want close 4010", err)
	}
}
