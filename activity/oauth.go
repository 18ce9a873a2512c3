package activity

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"sudokubot/commands"
)

// DiscordOAuth is the sign-in of the Activity inside Discord: the code the
// page's authorize() got is exchanged for an access token (with the
// application's id and secret), and the token for the user (users/@me).
// Its errors name the step and Discord's status and error code, never the
// code, the token or the secret.
type DiscordOAuth struct {
	ClientID, ClientSecret string
	// APIBase is Discord's origin ("https://discord.com"; a fake in tests).
	APIBase string
	// Client makes the requests (http.DefaultClient when nil).
	Client *http.Client
}

// maxOAuthBody bounds what is read of Discord's answers.
const maxOAuthBody = 64 << 10

// SignIn exchanges code for the player it belongs to and the user's
// access token.
func (d DiscordOAuth) SignIn(ctx context.Context, code string) (SignedIn, error) {
	p, tok, err := d.exchange(ctx, code)
	return SignedIn{Player: p, AccessToken: tok}, err
}

// exchange is SignIn: code → access token → users/@me.
func (d DiscordOAuth) exchange(ctx context.Context, code string) (commands.Player, string, error) {
	if d.ClientID == "" || d.ClientSecret == "" {
		return commands.Player{}, "", errors.New("discord sign-in: no client id or secret")
	}
	if code == "" || len(code) > 512 {
		return commands.Player{}, "", errors.New("discord sign-in: no code, or one too long")
	}
	base := strings.TrimSuffix(d.APIBase, "/")
	if base == "" {
		base = "https://discord.com"
	}
	client := d.Client
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	form := url.Values{"client_id": {d.ClientID}, "client_secret": {d.ClientSecret}, "grant_type": {"authorization_code"}, "code": {code}}
	req, err := http.NewRequestWithContext(ctx, "POST", base+"/api/v10/oauth2/token", strings.NewReader(form.Encode()))
	if err != nil {
		return commands.Player{}, "", errors.New("discord sign-in: bad API base")
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	var tok struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
	}
	if err := callDiscord(client, req, "token exchange", &tok); err != nil {
		return commands.Player{}, "", err
	}
	if tok.AccessToken == "" {
		return commands.Player{}, "", errors.New("discord sign-in: token exchange: no access token in the answer")
	}
	req, _ = http.NewRequestWithContext(ctx, "GET", base+"/api/v10/users/@me", nil)
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	var me struct {
		ID         string `json:"id"`
		Username   string `json:"username"`
		GlobalName string `json:"global_name"`
	}
	if err := callDiscord(client, req, "users/@me", &me); err != nil {
		return commands.Player{}, "", err
	}
	if me.ID == "" {
		return commands.Player{}, "", errors.New("discord sign-in: users/@me: no user id in the answer")
	}
	name := me.GlobalName
	if name == "" {
		name = me.Username
	}
	return commands.Player{UserID: me.ID, UserName: name}, tok.AccessToken, nil
}

// callDiscord sends req and reads a JSON answer into v. Its errors hold
// the step, the status and Discord's error code only (not the URL's query,
// not the body it sent).
func callDiscord(client *http.Client, req *http.Request, step string, v any) error {
	resp, err := client.Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			return fmt.Errorf("discord sign-in: %s: %w", step, context.Cause(req.Context()))
		}
		return fmt.Errorf("discord sign-in: %s: Discord could not be reached", step)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxOAuthBody))
	if err != nil {
		return fmt.Errorf("discord sign-in: %s: reading the answer failed", step)
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error string `json:"error"`
		}
		json.Unmarshal(body, &e)
		code := e.Error
		if len(code) > 40 || strings.ContainsAny(code, " \n") {
			code = ""
		}
		return fmt.Errorf("discord sign-in: %s: status %d %s", step, resp.StatusCode, code)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("discord sign-in: %s: the answer is not the JSON expected", step)
	}
	return nil
}
