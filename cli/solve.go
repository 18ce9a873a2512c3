package cli

import (
	"context"
	"fmt"
)

// runSolve is not built yet.
func runSolve(ctx context.Context, args []string, stdio IO) int {
	fmt.Fprintln(stdio.Stderr, "sudokubot solve: not built yet")
	return 1
}
