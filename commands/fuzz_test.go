package commands

import (
	"context"
	"testing"
	"time"
)

// FuzzHandle feeds arbitrary text to every way text reaches the service —
// a puzzle option, a modal field, a message, a custom id — and checks that
// nothing panics and every reply stays within Discord's limits.
func FuzzHandle(f *testing.F) {
	for _, seed := range []string{uniquePuzzle, multiPuzzle, clashPuzzle, noSolutionPuzzle, "", "5", "hint:2:u:33q", "ask:solve:output=text", "gseed:1:9:zz:0", "<@1> " + uniquePuzzle} {
		f.Add(seed)
	}
	s := New(Config{})
	f.Fuzz(func(t *testing.T, text string) {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		reqs := []Request{
			slash("solve", "puzzle", text, "output", "text"),
			slash("check", "puzzle", text),
			slash("hint", "puzzle", text),
			{Kind: ModalSubmit, CustomID: "ask:solve:", Fields: map[string]string{"puzzle": text}},
			{Kind: ModalSubmit, CustomID: text, Fields: map[string]string{"puzzle": uniquePuzzle}},
			{Kind: Component, CustomID: text},
			{Kind: Mention, Mentioned: true, Text: text},
			{Kind: MessageCommand, Command: "Check Sudoku", Text: text},
		}
		for _, req := range reqs {
			s.Plan(ctx, req)
			checkLimits(t, s.Handle(ctx, req))
		}
	})
}
