package cli

import (
	"context"
	"fmt"
)

// runDaily is not built yet.
func runDaily(ctx context.Context, args []string, stdio IO) int {
	fmt.Fprintln(stdio.Stderr, "sudokubot daily: not built yet")
	return 1
}
