package cli

import (
	"context"
	"fmt"
)

// runRate is not built yet.
func runRate(ctx context.Context, args []string, stdio IO) int {
	fmt.Fprintln(stdio.Stderr, "sudokubot rate: not built yet")
	return 1
}
