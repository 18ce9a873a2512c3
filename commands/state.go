package commands

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"sudokubot/sudoku"
)

// maxCustomID is Discord's limit on a component's custom id.
const maxCustomID = MaxCustomID

// gridState is what a button needs to redo its work without the bot
// remembering anything: the puzzle and, for hints, the position reached
// (the givens plus the values placed since).
type gridState struct {
	Puzzle   *sudoku.Grid
	Position *sudoku.Grid // nil when the position is the puzzle itself
}

// errExpired is returned for a state that was kept in memory and is gone
// (evicted, or the bot restarted).
var errExpired = errors.New("state expired")

// The state text: box rows and box columns as one base-36 digit each, a
// mode letter, the cells packed as one big number in base64url, the
// candidates the position's pencil marks lack after a '!' when it has any
// (each as cell*N+value-1 in a fixed number of base64url digits), and the
// alphabet after a '.' when it is not the default. Mode 'p' holds the puzzle
// only (cell digits 0..N); mode 'q' holds puzzle and position (0 empty,
// 1..N a given, N+1..2N a placed value). A 9x9 'q' state is 61 characters, so
// a hint button ("hint:2:" + state) fits Discord's 100.
//
// Bigger grids don't fit; their state goes into a bounded in-memory cache
// and the custom id holds "~" and a short key instead.

// encodeState packs st into text. It does not consult the cache.
func encodeState(st gridState) string {
	g := st.Puzzle
	n := g.N()
	mode, base := byte('p'), n+1
	if st.Position != nil {
		mode, base = 'q', 2*n+1
	}
	num := new(big.Int)
	b := big.NewInt(int64(base))
	d := new(big.Int)
	// Most significant digit first: the last cell.
	for i := len(g.Cells) - 1; i >= 0; i-- {
		v := int(g.Cells[i])
		if st.Position != nil && v == 0 {
			if p := int(st.Position.Cells[i]); p != 0 {
				v = n + p
			}
		}
		num.Mul(num, b)
		num.Add(num, d.SetInt64(int64(v)))
	}
	var sb strings.Builder
	sb.WriteString(strconv.FormatInt(int64(g.Shape.BoxRows), 36))
	sb.WriteString(strconv.FormatInt(int64(g.Shape.BoxCols), 36))
	sb.WriteByte(mode)
	sb.WriteString(base64.RawURLEncoding.EncodeToString(num.Bytes()))
	if st.Position != nil && st.Position.Marks != nil {
		writeRemoved(&sb, st.Position)
	}
	if g.Alphabet != sudoku.DefaultAlphabet(n) {
		sb.WriteByte('.')
		sb.WriteString(string(g.Alphabet))
	}
	return sb.String()
}

// decodeState reverses encodeState. It never panics, whatever the text.
func decodeState(text string) (gridState, error) {
	bad := func(why string) (gridState, error) {
		return gridState{}, fmt.Errorf("bad button state %.20q: %s", text, why)
	}
	if len(text) < 3 || len(text) > 8192 {
		return bad("wrong length")
	}
	rows, err1 := strconv.ParseInt(text[0:1], 36, 8)
	cols, err2 := strconv.ParseInt(text[1:2], 36, 8)
	shape := sudoku.Shape{BoxRows: int(rows), BoxCols: int(cols)}
	if err1 != nil || err2 != nil || !shape.Valid() {
		return bad("no shape")
	}
	n := shape.N()
	mode := text[2]
	base := n + 1
	switch mode {
	case 'p':
	case 'q':
		base = 2*n + 1
	default:
		return bad("unknown mode")
	}
	payload, alpha, hasAlpha := strings.Cut(text[3:], ".")
	payload, removed, hasMarks := strings.Cut(payload, "!")
	if hasMarks && mode != 'q' {
		return bad("pencil marks without a position")
	}
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil {
		return bad("not base64")
	}
	alphabet := sudoku.DefaultAlphabet(n)
	if hasAlpha {
		if utf8.RuneCountInString(alpha) != n || !distinctRunes(alpha) {
			return bad("bad alphabet")
		}
		alphabet = sudoku.Alphabet(alpha)
	}
	puzzle := &sudoku.Grid{Shape: shape, Alphabet: alphabet, Cells: make([]uint8, shape.Size())}
	var position *sudoku.Grid
	if mode == 'q' {
		position = puzzle.Clone()
	}
	num := new(big.Int).SetBytes(raw)
	b := big.NewInt(int64(base))
	d := new(big.Int)
	for i := range puzzle.Cells {
		num.QuoRem(num, b, d)
		v := int(d.Int64())
		switch {
		case v == 0:
		case v <= n:
			puzzle.Cells[i] = uint8(v)
			if position != nil {
				position.Cells[i] = uint8(v)
			}
		default:
			position.Cells[i] = uint8(v - n)
		}
	}
	if num.Sign() != 0 {
		return bad("too many cells")
	}
	if hasMarks {
		if position.Marks, err = readRemoved(position, removed); err != nil {
			return bad(err.Error())
		}
	}
	return gridState{Puzzle: puzzle, Position: position}, nil
}

const b64digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// removedWidth is how many base64url digits one removed candidate takes.
func removedWidth(s sudoku.Shape) int {
	w, span := 1, 64
	for span < s.Size()*s.N() {
		w, span = w+1, span*64
	}
	return w
}

// writeRemoved writes "!" and the candidates of pos's empty cells that its
// pencil marks lack (an empty cell with no marks lacks none).
func writeRemoved(sb *strings.Builder, pos *sudoku.Grid) {
	n, w := pos.N(), removedWidth(pos.Shape)
	plain := pos.Candidates()
	sb.WriteByte('!')
	for c, m := range pos.Marks {
		if pos.Cells[c] != 0 || m == 0 {
			continue
		}
		for gone := plain[c] &^ m; gone != 0; gone &= gone - 1 {
			x := c*n + bits.TrailingZeros32(gone)
			var digits [4]byte
			for i := w - 1; i >= 0; i-- {
				digits[i] = b64digits[x%64]
				x /= 64
			}
			sb.Write(digits[:w])
		}
	}
}

// readRemoved reverses writeRemoved: the position's pencil marks are its
// plain candidates less the removed ones.
func readRemoved(pos *sudoku.Grid, text string) ([]uint32, error) {
	n, w := pos.N(), removedWidth(pos.Shape)
	if len(text)%w != 0 {
		return nil, errors.New("bad pencil marks")
	}
	marks := pos.Candidates()
	for i := 0; i < len(text); i += w {
		x := 0
		for _, ch := range []byte(text[i : i+w]) {
			d := strings.IndexByte(b64digits, ch)
			if d < 0 {
				return nil, errors.New("bad pencil marks")
			}
			x = x*64 + d
		}
		c, v := x/n, x%n
		if c >= len(marks) {
			return nil, errors.New("pencil mark off the grid")
		}
		marks[c] &^= 1 << v
	}
	return marks, nil
}

func distinctRunes(s string) bool {
	seen := make(map[rune]bool)
	for _, r := range s {
		if seen[r] || r == utf8.RuneError {
			return false
		}
		seen[r] = true
	}
	return true
}

// customID returns head + ":" + the state, keeping the state in memory
// behind a short key when the whole would pass Discord's 100 characters.
func (s *Service) customID(head string, st gridState) string {
	prefix, rest, _ := strings.Cut(head, ":")
	var fields []string
	if rest != "" {
		fields = strings.Split(rest, ":")
	}
	enc := encodeState(st)
	if id, ok := newID(prefix, append(fields, enc)...); ok {
		return id
	}
	return mustID(prefix, append(fields, "~"+s.states.put(enc))...)
}

// splitCustomID cuts a custom id into its nHead leading fields (the prefix
// included) and the state that follows them.
func (s *Service) splitCustomID(id string, nHead int) ([]string, gridState, error) {
	f, ok := idFields(id, nHead)
	if !ok {
		return nil, gridState{}, fmt.Errorf("custom id %q has fewer than %d fields", id, nHead+1)
	}
	parts := append([]string{idPrefix(id)}, f...)
	enc := parts[nHead]
	if key, ok := strings.CutPrefix(enc, "~"); ok {
		enc, ok = s.states.get(key)
		if !ok {
			return nil, gridState{}, errExpired
		}
	}
	st, err := decodeState(enc)
	return parts[:nHead], st, err
}

// stateCache keeps encoded states too long for a custom id, the newest
// cap of them; older ones are dropped and their buttons answer "expired".
type stateCache struct {
	mu   sync.Mutex
	next uint64
	keys []string // ring of keys in insertion order
	vals map[string]string
	pos  int
}

func newStateCache(capacity int) *stateCache {
	// Keys start from the clock so that a key handed out before a restart
	// does not name a different state after it.
	return &stateCache{
		next: uint64(time.Now().UnixNano()),
		keys: make([]string, capacity),
		vals: make(map[string]string, capacity),
	}
}

func (c *stateCache) put(enc string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.next++
	key := strconv.FormatUint(c.next, 36)
	if old := c.keys[c.pos]; old != "" {
		delete(c.vals, old)
	}
	c.keys[c.pos] = key
	c.pos = (c.pos + 1) % len(c.keys)
	c.vals[key] = enc
	return key
}

func (c *stateCache) get(key string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.vals[key]
	return v, ok
}
