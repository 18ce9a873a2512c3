package cli

import (
	"context"
	"fmt"
)

// runHint is not built yet.
func runHint(ctx context.Context, args []string, stdio IO) int {
	fmt.Fprintln(stdio.Stderr, "sudokubot hint: not built yet")
	return 1
}
