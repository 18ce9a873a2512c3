package sudoku

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Symmetry is the pattern the clues of a generated puzzle follow.
type Symmetry int

// The symmetries.
const (
	NoSymmetry Symmetry = iota
	Rotate180
	Rotate90
	Mirror
	Diagonal
)

var symmetryNames = [...]string{"none", "rot180", "rot90", "mirror", "diagonal"}

func (s Symmetry) String() string {
	if s < 0 || int(s) >= len(symmetryNames) {
		return fmt.Sprintf("Symmetry(%d)", int(s))
	}
	return symmetryNames[s]
}

// ParseSymmetry reads a symmetry name.
func ParseSymmetry(s string) (Symmetry, error) {
	for i, name := range symmetryNames {
		if strings.EqualFold(strings.TrimSpace(s), name) {
			return Symmetry(i), nil
		}
	}
	return 0, fmt.Errorf("unknown symmetry %q: want one of %s", s, strings.Join(symmetryNames[:], ", "))
}

// GenerateOptions say what puzzle to make.
type GenerateOptions struct {
	Shape    Shape
	Level    Level
	Symmetry Symmetry
	Seed     uint64
}

// Puzzle is a generated puzzle with its solution and rating.
type Puzzle struct {
	Grid     *Grid
	Solution *Grid
	Rating   Rating
}

// Generate makes a puzzle with one solution, the asked symmetry and a rating
// in the asked level. The same options give the same puzzle everywhere.
//
// Placeholder until the generator lands.
func Generate(ctx context.Context, opts GenerateOptions) (Puzzle, error) {
	return Puzzle{}, ErrNotBuilt
}

// DailyPuzzle is one of the day's three puzzles.
type DailyPuzzle struct {
	Number int       // "Daily #325": days since the first daily, from 1
	Date   time.Time // the UTC day, at midnight
	Level  Level
	Puzzle
}

// Daily returns the daily puzzle of date's UTC day at level: a pure function
// of the two.
//
// Placeholder until the generator lands.
func Daily(ctx context.Context, date time.Time, level Level) (DailyPuzzle, error) {
	return DailyPuzzle{}, ErrNotBuilt
}
