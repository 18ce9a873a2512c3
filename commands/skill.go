package commands

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"sudokubot/internal/glicko"
	"sudokubot/store"
	"sudokubot/sudoku"
)

// Skill ratings, as lichess rates its puzzle solvers: each finished game is
// one Glicko-2 game (internal/glicko) between the player and the puzzle.
//
//   - Which games rate: a daily (played once, so always a first attempt)
//     and a /play game, solved or given up. Not rated: archive replays,
//     races and co-op games, and solves marked unfair (fair.go), whose time
//     says nothing about the player.
//   - The puzzle's rating is seeded from its Sudoku Explainer score
//     (puzzleSeed); a daily's is kept and moves with every solve, as many
//     play it; a /play puzzle is played once and rates at its seed.
//   - The outcome, from 0 to 1, comes from the time and the help asked for
//     (outcome): giving up is 0, a solve at par 0.75, at half par or less
//     1, at twice par 0.5, never below 0.25 for a solve; each hint takes
//     0.1 off and each check 0.05, down to 0.1.
//
// The store rates a game once, in one transaction, whatever retries or
// processes (store.RateGame); package commands owns the arithmetic.

// SkillStore keeps the players' ratings and what /profile shows beside
// them (package store implements it).
type SkillStore interface {
	RateGame(ctx context.Context, rg store.RatedGame, rate store.Rater) (store.RatingChange, bool, error)
	PlayerRating(ctx context.Context, userID string) (store.Rating, bool, error)
	RatingHistory(ctx context.Context, userID string, limit int) ([]store.RatingChange, error)
	PersonalBests(ctx context.Context, userID string) ([]store.Best, error)
}

// seScale maps Sudoku Explainer scores to puzzle ratings, through the level
// bounds (easy ≤ 1.5, medium ≤ 2.6, hard ≤ 4.4, expert ≤ 7.0): each level
// spans 300 points, so a player who solves a level's puzzles at par sits
// about there.
var seScale = [][2]float64{{1.0, 800}, {1.5, 1000}, {2.6, 1300}, {4.4, 1600}, {7.0, 1900}, {10.0, 2200}, {12.0, 2400}}

// levelScores stand in for a puzzle's score when the game doesn't know it
// (games started before scores were kept): the middle of its level.
var levelScores = map[string]float64{"easy": 1.2, "medium": 2.0, "hard": 3.5, "expert": 5.5, "extreme": 8.0}

// puzzleDeviation is a fresh puzzle's deviation: its score tells its
// difficulty fairly well, so less doubt than a newcomer's 350.
const puzzleDeviation = 150

// puzzleSeed is the rating of a puzzle with Sudoku Explainer score se.
func puzzleSeed(se float64) float64 {
	if se <= seScale[0][0] {
		return seScale[0][1]
	}
	for i := 1; i < len(seScale); i++ {
		a, b := seScale[i-1], seScale[i]
		if se <= b[0] {
			return a[1] + (se-a[0])/(b[0]-a[0])*(b[1]-a[1])
		}
	}
	return seScale[len(seScale)-1][1]
}

// parFactor: a puzzle's par time is this many times the fastest a person
// can solve it (fair.go's minSolveTime): about 4:30 for an easy 9x9 with 50
// cells to fill, 7:30 medium, 11:00 hard.
const parFactor = 20

// outcome scores g, a finished game with empty cells to fill, from 0 to 1.
// A solve within par is a win (1), as lichess counts a puzzle solved: so a
// fair solve never costs rating, however easy the puzzle (an easy one,
// rated below the player, just gains little). Each doubling of the time
// past par takes 0.25 off (twice par 0.75, four times 0.5, never below
// 0.25); each hint 0.1 and each check 0.05 (never below 0.1). Giving up
// is a loss (0).
func outcome(g store.Game, empty int) float64 {
	if g.Status != store.Solved {
		return 0
	}
	par := minSolveTime(empty, g.Level) * parFactor
	s := 1.0
	if t := g.Elapsed(g.FinishedAt); par > 0 && t > par {
		s = max(1-0.25*math.Log2(float64(t)/float64(par)), 0.25)
	}
	s -= 0.1*float64(g.Hints) + 0.05*float64(g.Checks)
	return math.Round(max(s, 0.1)*1000) / 1000
}

// ratedGame reports whether g's finish moves its player's rating.
func ratedGame(g store.Game) bool {
	switch {
	case g.RaceID != 0 || isArchive(g) || g.Level == pictureLevel:
		return false // a game from a picture was partly played elsewhere
	case g.Status == store.Solved:
		return g.Flag == ""
	}
	return g.Status == store.GaveUp
}

func toGlicko(r store.Rating) glicko.Rating {
	return glicko.Rating{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility}
}

func fromGlicko(r glicko.Rating) store.Rating {
	return store.Rating{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility}
}

// rateWith is the store.Rater of a game scored score: one Glicko-2 period
// for the player against the puzzle, and for the puzzle against the player.
func rateWith(score float64) store.Rater {
	return func(player, puzzle store.Rating) (store.Rating, store.Rating) {
		p := glicko.Update(toGlicko(player), []glicko.Result{{Opponent: toGlicko(puzzle), Score: score}}, glicko.Tau)
		z := glicko.Update(toGlicko(puzzle), []glicko.Result{{Opponent: toGlicko(player), Score: 1 - score}}, glicko.Tau)
		return fromGlicko(p), fromGlicko(z)
	}
}

// rate rates g, just finished with empty cells to fill, when it is a rated
// game, and returns the change; nil when it isn't rated, or when the store
// failed (logged: a rating never stands in the way of a finish).
func (p *player) rate(ctx context.Context, g store.Game, empty int) *store.RatingChange {
	if p.skills == nil || !ratedGame(g) {
		return nil
	}
	se := g.Score
	if se <= 0 {
		se = levelScores[g.Level]
	}
	if se <= 0 {
		se = levelScores["medium"]
	}
	score := outcome(g, empty)
	rg := store.RatedGame{
		GameID: g.ID, UserID: g.UserID,
		PuzzleSeed: store.Rating{Rating: puzzleSeed(se), Deviation: puzzleDeviation, Volatility: glicko.DefaultVolatility},
		PlayerSeed: fromGlicko(glicko.New()),
		Score:      score, At: g.FinishedAt,
	}
	if g.IsDaily() {
		rg.Puzzle = "daily " + day(g.DailyDate) + " " + g.DailyLevel
	}
	ch, _, err := p.skills.RateGame(ctx, rg, rateWith(score))
	if err != nil {
		p.s.logf("rate game %d of %s: %v", g.ID, g.UserID, err)
		return nil
	}
	return &ch
}

// ratingNote is the finish's line about the rating: "Rating 1500 → 1562
// (+62)."
func ratingNote(ch *store.RatingChange) string {
	if ch == nil {
		return ""
	}
	settled := ""
	if ch.Deviation > provisional {
		settled = ", provisional for a few more games: see /profile"
	}
	return fmt.Sprintf(" Rating %d → %d (%s%s).", round(ch.Before), round(ch.After), signed(ch.After-ch.Before), settled)
}

// provisional: a deviation above this marks the rating as not settled yet
// (lichess's threshold), written with a "?".
const provisional = 110

func round(x float64) int { return int(math.Round(x)) }

// ratingText writes a rating as "1562", or "1562?" while provisional.
func ratingText(r, deviation float64) string {
	s := strconv.Itoa(round(r))
	if deviation > provisional {
		s += "?"
	}
	return s
}

// signed writes a rating change: "+62", "−4", "±0".
func signed(d float64) string {
	switch n := round(d); {
	case n > 0:
		return fmt.Sprintf("+%d", n)
	case n < 0:
		return fmt.Sprintf("−%d", -n)
	}
	return "±0"
}

// sparkline draws ratings (oldest first) as a row of block characters.
func sparkline(ratings []float64) string {
	if len(ratings) == 0 {
		return ""
	}
	lo, hi := slices.Min(ratings), slices.Max(ratings)
	blocks := []rune("▁▂▃▄▅▆▇█")
	var b strings.Builder
	for _, r := range ratings {
		i := len(blocks) / 2
		if hi > lo {
			i = int(math.Round((r - lo) / (hi - lo) * float64(len(blocks)-1)))
		}
		b.WriteRune(blocks[i])
	}
	return b.String()
}

// historyShown is how many rated games /profile lists.
const historyShown = 10

// ratingFields are /profile's fields about userID's rating: the rating
// with its deviation, and the last games as a sparkline and their changes.
func (p *player) ratingFields(ctx context.Context, userID string) ([]EmbedField, error) {
	r, ok, err := p.skills.PlayerRating(ctx, userID)
	if err != nil {
		return nil, err
	}
	if !ok {
		return []EmbedField{{Name: "Rating", Value: fmt.Sprintf("Not rated yet: finish a daily or a /play game. Everyone starts at %d ± %d.",
			glicko.DefaultRating, glicko.DefaultDeviation)}}, nil
	}
	value := fmt.Sprintf("**%s** ± %d after %s", ratingText(r.Rating, r.Deviation), round(r.Deviation), Plural(r.Games, "rated game", "rated games"))
	if r.Deviation > provisional {
		value += "\nThe ? goes once the ± is under " + strconv.Itoa(provisional) + ": a few more games."
	}
	fields := []EmbedField{{Name: "Rating", Value: value, Inline: true}}
	hist, err := p.skills.RatingHistory(ctx, userID, historyShown)
	if err != nil {
		return nil, err
	}
	if len(hist) > 0 {
		line := []float64{hist[len(hist)-1].Before}
		var changes []string
		for i := len(hist) - 1; i >= 0; i-- {
			line = append(line, hist[i].After)
			changes = append(changes, signed(hist[i].After-hist[i].Before))
		}
		fields = append(fields, EmbedField{Name: fmt.Sprintf("Last %s", Plural(len(hist), "game", "games")),
			Value: sparkline(line) + "\n" + strings.Join(changes, " "), Inline: true})
	}
	return fields, nil
}

// bestsField lists a player's personal bests, by size then level.
func bestsField(bests []store.Best) EmbedField {
	slices.SortFunc(bests, func(a, b store.Best) int {
		if na, nb := shapeSide(a.Shape), shapeSide(b.Shape); na != nb {
			return na - nb
		}
		return levelRank(a.Level) - levelRank(b.Level)
	})
	var b strings.Builder
	for _, x := range bests {
		if x.Level == pictureLevel {
			continue // played on from a picture: timed only from here
		}
		n := shapeSide(x.Shape)
		fmt.Fprintf(&b, "%dx%d %s: **%s** (%s)\n", n, n, x.Level, clock(x.Time), Plural(x.Solved, "solve", "solves"))
	}
	if b.Len() == 0 {
		b.WriteString("None yet: your fastest fair solve of each size and level shows here.")
	}
	return EmbedField{Name: "Personal bests", Value: clip(strings.TrimSpace(b.String()), maxEmbedFieldValue)}
}

// shapeSide is the side of a board stored with shape "3x3" (9); 0 when
// unreadable.
func shapeSide(shape string) int {
	dims, _, _ := strings.Cut(shape, ":")
	r, c, _ := strings.Cut(dims, "x")
	a, err1 := strconv.Atoi(r)
	b, err2 := strconv.Atoi(c)
	if err1 != nil || err2 != nil {
		return 0
	}
	return a * b
}

// levelRank orders level names easiest first.
func levelRank(level string) int {
	if l, err := sudoku.ParseLevel(level); err == nil {
		return int(l)
	}
	return 99
}
