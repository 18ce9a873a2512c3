package cli

import (
	"context"
	"fmt"
)

// runConsole is not built yet.
func runConsole(ctx context.Context, args []string, stdio IO) int {
	fmt.Fprintln(stdio.Stderr, "sudokubot console: not built yet")
	return 1
}
