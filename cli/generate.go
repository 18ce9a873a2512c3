package cli

import (
	"context"
	"fmt"
)

// runGenerate is not built yet.
func runGenerate(ctx context.Context, args []string, stdio IO) int {
	fmt.Fprintln(stdio.Stderr, "sudokubot generate: not built yet")
	return 1
}
