package cli

import (
	"context"
	"fmt"
)

// runRender is not built yet.
func runRender(ctx context.Context, args []string, stdio IO) int {
	fmt.Fprintln(stdio.Stderr, "sudokubot render: not built yet")
	return 1
}
