package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestRunWithoutTokenExplains(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Run(context.Background(), nil, IO{Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" }})
	if code == 0 {
		t.Fatalf("exit code 0 without a token")
	}
	msg := errOut.String()
	for _, want := range []string{"DISCORD_TOKEN", "discord.com/developers/applications", "applications.commands", "oauth2/authorize", "go run . console"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
}

func TestRunRejectsBadSettings(t *testing.T) {
	var errOut bytes.Buffer
	env := map[string]string{"DISCORD_TOKEN": "x", "SOLVE_TIMEOUT": "soon"}
	code := Run(context.Background(), []string{"run"}, IO{Stdout: &bytes.Buffer{}, Stderr: &errOut, Getenv: func(k string) string { return env[k] }})
	if code != 2 || !strings.Contains(errOut.String(), "SOLVE_TIMEOUT") {
		t.Errorf("exit %d, stderr %q; want 2 naming SOLVE_TIMEOUT", code, errOut.String())
	}
	if strings.Contains(errOut.String(), "x\n") {
		t.Errorf("token echoed")
	}
}
