package cli

import (
	"context"
	"fmt"
)

// runBot is not built yet.
func runBot(ctx context.Context, args []string, stdio IO) int {
	fmt.Fprintln(stdio.Stderr, "sudokubot bot: not built yet")
	return 1
}
