package sudoku

import (
	"fmt"
	"strings"
)

// Level is a difficulty level people understand.
type Level int

// The levels, easiest first.
const (
	Easy Level = iota
	Medium
	Hard
	Expert
	Extreme
)

var levelNames = [...]string{"easy", "medium", "hard", "expert", "extreme"}

func (l Level) String() string {
	if l < 0 || int(l) >= len(levelNames) {
		return fmt.Sprintf("Level(%d)", int(l))
	}
	return levelNames[l]
}

// Levels lists every level, easiest first.
func Levels() []Level { return []Level{Easy, Medium, Hard, Expert, Extreme} }

// ParseLevel reads a level name, ignoring case.
func ParseLevel(s string) (Level, error) {
	for i, name := range levelNames {
		if strings.EqualFold(strings.TrimSpace(s), name) {
			return Level(i), nil
		}
	}
	return 0, fmt.Errorf("unknown level %q: want one of %s", s, strings.Join(levelNames[:], ", "))
}

// Rating is a puzzle's difficulty on the Sudoku Explainer scale.
type Rating struct {
	// Score is the SE score of the hardest step needed when always taking the
	// easiest available step (1.0 … 10+).
	Score float64
	// Level is the band Score falls in.
	Level Level
	// Hardest names the technique of the hardest step.
	Hardest string
	// Complete is false when the logical solver could not finish the puzzle;
	// Score is then beyond its hardest technique.
	Complete bool
}

// Rate rates puzzle g (which should have a unique solution).
//
// Placeholder until the logical solver lands: it rates by clue count only.
func Rate(g *Grid) Rating {
	free := float64(len(g.Cells)-g.Clues()) / float64(len(g.Cells))
	score := 1.0 + 9*free*free
	return Rating{Score: score, Level: LevelFor(score), Hardest: "unknown", Complete: false}
}

// LevelFor returns the level whose band holds an SE score. Placeholder bands.
func LevelFor(score float64) Level {
	switch {
	case score < 2.0:
		return Easy
	case score < 3.0:
		return Medium
	case score < 4.5:
		return Hard
	case score < 6.5:
		return Expert
	}
	return Extreme
}
