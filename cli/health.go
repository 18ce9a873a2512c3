package cli

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// runHealth asks a running bot's /healthz whether it is up: the check a
// container's HEALTHCHECK runs, where no curl or wget is at hand.
func runHealth(ctx context.Context, args []string, stdio IO) int {
	fs := newFlags(stdio, "health", "[-url URL] [-timeout 3s]",
		"Asks the bot serving at OPS_ADDR (else INTERACTIONS_ADDR) on this machine for /healthz.\n"+
			"Exit status: 0 when it answers 200, 1 otherwise, 2 bad usage (or neither address set, without -url).")
	url := fs.String("url", "", "the health URL (default: http://127.0.0.1:PORT/healthz from OPS_ADDR or INTERACTIONS_ADDR)")
	timeout := fs.Duration("timeout", 3*time.Second, "give up after this long")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return fs.usageError("unexpected argument %q: all options are flags", fs.Arg(0))
	}
	if *timeout <= 0 {
		return fs.usageError("-timeout %v: want a positive duration", *timeout)
	}
	if *url == "" {
		addr := stdio.getenv("OPS_ADDR")
		if addr == "" {
			addr = stdio.getenv("INTERACTIONS_ADDR")
		}
		if addr == "" {
			return fs.usageError("no address: set OPS_ADDR (or INTERACTIONS_ADDR) as the bot has it, or give -url")
		}
		u, err := healthURL(addr)
		if err != nil {
			return fs.usageError("%v", err)
		}
		*url = u
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, *url, nil)
	if err != nil {
		return fs.usageError("-url %q: %v", *url, err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot health: %v\n", err)
		return exitFail
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintf(stdio.Stderr, "sudokubot health: %s answered %s: %s\n", *url, resp.Status, strings.TrimSpace(string(body)))
		return exitFail
	}
	fmt.Fprintf(stdio.Stdout, "%s: %s\n", *url, strings.TrimSpace(string(body)))
	return exitOK
}

// healthURL is the /healthz URL of a bot listening at addr (":9090",
// "0.0.0.0:9090", "[::]:9090", "10.0.0.5:9090"), reached from this
// machine.
func healthURL(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("address %q: want host:port or :port, as in OPS_ADDR=:9090", addr)
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/healthz", nil
}
