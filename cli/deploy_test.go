package cli

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"sudokubot/bot"
	botcmd "sudokubot/commands"
)

// settingNames are the settings .env.example lists: the ones the bot reads.
func settingNames(t *testing.T) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	for k := range envExample(t) {
		names[k] = true
	}
	return names
}

// envExample is what .env.example sets, by name.
func envExample(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", ".env.example"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	values := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok && !strings.HasPrefix(k, "#") {
			values[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return values
}

// TestEnvExampleIsTheDefault: the values .env.example shows are the ones
// the bot takes when a setting is unset, so copying it changes nothing;
// the input bound among them is the commands' own default, defined once.
func TestEnvExampleIsTheDefault(t *testing.T) {
	env := envExample(t)
	env["DISCORD_TOKEN"] = "token" // the one setting with no default
	got, err := bot.LoadConfig(func(k string) string { return env[k] })
	if err != nil {
		t.Fatalf("LoadConfig(.env.example): %v", err)
	}
	got.Token = ""
	want := bot.Default()
	want.InteractionsPath = bot.DefaultInteractionsPath // LoadConfig's, not in Default
	if !reflect.DeepEqual(got, want) {
		t.Errorf("LoadConfig(.env.example) = %+v\nwant bot.Default() = %+v", got, want)
	}
	if got.MaxInputChars != botcmd.DefaultMaxInput {
		t.Errorf("MAX_INPUT_CHARS=%d in .env.example, commands.DefaultMaxInput = %d", got.MaxInputChars, botcmd.DefaultMaxInput)
	}
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	n := botcmd.DefaultMaxInput
	if want := fmt.Sprintf("at most %d,%03d characters (`MAX_INPUT_CHARS`)", n/1000, n%1000); !strings.Contains(strings.Join(strings.Fields(string(readme)), " "), want) {
		t.Errorf("README does not say %q", want)
	}
}

// TestDockerfile holds the image to what the code needs: a static build,
// an unprivileged user, the database on the volume, /healthz served (the
// bot serves it only with OPS_ADDR or INTERACTIONS_ADDR) and asked by a
// sub-command that exists.
func TestDockerfile(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(data), "\\\n", " ")
	settings := settingNames(t)
	env := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^ENV (.+)$`).FindAllStringSubmatch(text, -1) {
		for _, kv := range strings.Fields(m[1]) {
			k, v, _ := strings.Cut(kv, "=")
			if !settings[k] {
				t.Errorf("Dockerfile sets %s, which is no setting of the bot (.env.example)", k)
			}
			env[k] = v
		}
	}
	for _, want := range []string{
		"CGO_ENABLED=0 go build",
		"\nFROM scratch\n",
		"\nVOLUME [\"/data\"]\n",
		"\nENTRYPOINT [\"/sudokubot\"]\n",
		"COPY --from=build /out/sudokubot /sudokubot",
		"/etc/ssl/certs/ca-certificates.crt",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
	if user := regexp.MustCompile(`(?m)^USER (\d+)`).FindStringSubmatch(text); user == nil || user[1] == "0" {
		t.Errorf("Dockerfile runs as %v, want a numeric unprivileged USER", user)
	}
	if !strings.HasPrefix(env["DATABASE_PATH"], "/data/") {
		t.Errorf("DATABASE_PATH=%q, want a file on the /data volume", env["DATABASE_PATH"])
	}
	if _, err := healthURL(env["OPS_ADDR"]); err != nil {
		t.Errorf("OPS_ADDR=%q: %v (without it the bot serves no /healthz)", env["OPS_ADDR"], err)
	}
	hc := regexp.MustCompile(`(?m)^HEALTHCHECK .*CMD \["/sudokubot", "([a-z]+)"\]`).FindStringSubmatch(text)
	if hc == nil {
		t.Fatal("Dockerfile has no HEALTHCHECK running /sudokubot")
	}
	if _, ok := commands[hc[1]]; !ok {
		t.Errorf("HEALTHCHECK runs sudokubot %s, which is no sub-command", hc[1])
	}
	if cmd := regexp.MustCompile(`(?m)^CMD \["([a-z]+)"\]`).FindStringSubmatch(text); cmd == nil || commands[cmd[1]].run == nil {
		t.Errorf("Dockerfile's CMD %v is no sub-command", cmd)
	}
}

// TestSystemdUnit holds the unit to the code: it runs a sub-command that
// exists with settings the bot reads, gives the bot longer to stop than
// the bot gives its replies, and does not restart on a configuration error.
func TestSystemdUnit(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "deploy", "sudokubot.service"))
	if err != nil {
		t.Fatal(err)
	}
	settings := settingNames(t)
	keys := map[string][]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			keys[k] = append(keys[k], v)
		}
	}
	exec := strings.Fields(strings.Join(keys["ExecStart"], ""))
	if len(exec) != 2 || exec[0] != "/usr/local/bin/sudokubot" || commands[exec[1]].run == nil {
		t.Errorf("ExecStart=%v, want /usr/local/bin/sudokubot and a sub-command", exec)
	}
	for _, e := range keys["Environment"] {
		if k, _, _ := strings.Cut(e, "="); !settings[k] {
			t.Errorf("Environment=%s: %s is no setting of the bot (.env.example)", e, k)
		}
	}
	stop, err := time.ParseDuration(strings.Join(keys["TimeoutStopSec"], ""))
	if err != nil || stop <= bot.Default().ShutdownWait {
		t.Errorf("TimeoutStopSec=%v (%v), want more than SHUTDOWN_WAIT's default %v", keys["TimeoutStopSec"], err, bot.Default().ShutdownWait)
	}
	if got := strings.Join(keys["RestartPreventExitStatus"], " "); got != "2" {
		t.Errorf("RestartPreventExitStatus=%s, want 2 (bad configuration: a restart cannot help)", got)
	}
	if got := strings.Join(keys["KillSignal"], ""); got != "SIGTERM" {
		t.Errorf("KillSignal=%s, want SIGTERM (the bot finishes replies in flight on it)", got)
	}
}
