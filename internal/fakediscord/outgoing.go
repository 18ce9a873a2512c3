package fakediscord

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"
)

// The fake can deliver interactions the way Discord does to an app with an
// "Interactions Endpoint URL": a POST of the interaction JSON, signed with
// the application's Ed25519 key over timestamp+body. The bot's HTTP
// response is the first answer; the fake records it as a Call (a POST to
// …/callback, as if the bot had sent it) and applies Discord's rules to it,
// so edits and follow-ups through the webhooks work as on the gateway path.

// outgoing is the state of HTTP delivery.
type outgoing struct {
	key     ed25519.PrivateKey
	pending map[string]chan struct{} // by token: closed once the HTTP answer is applied
	client  *http.Client
}

// PublicKey returns the application's public key, hex encoded, as the
// Developer Portal shows it (for DISCORD_PUBLIC_KEY). The key pair is made
// on first use.
func (s *Server) PublicKey() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return hex.EncodeToString(s.signer().key.Public().(ed25519.PublicKey))
}

// signer returns the outgoing state, making it on first use. s.mu is held.
func (s *Server) signer() *outgoing {
	if s.out == nil {
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			panic(err) // crypto/rand does not fail
		}
		s.out = &outgoing{key: priv, pending: map[string]chan struct{}{},
			client: &http.Client{Timeout: 10 * time.Second}}
	}
	return s.out
}

// Sign returns the X-Signature-Ed25519 value for timestamp and body.
func (s *Server) Sign(timestamp string, body []byte) string {
	s.mu.Lock()
	key := s.signer().key
	s.mu.Unlock()
	msg := append([]byte(timestamp), body...)
	return hex.EncodeToString(ed25519.Sign(key, msg))
}

// SignedRequest builds a POST of body to url signed now, as Discord sends
// it; tests change it (a stale timestamp, a wrong signature) before
// sending it with Send.
func (s *Server) SignedRequest(url string, body []byte) (*http.Request, error) {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Discord-Interactions/1.0 (+https://discord.com)")
	req.Header.Set("X-Signature-Timestamp", ts)
	req.Header.Set("X-Signature-Ed25519", s.Sign(ts, body))
	return req, nil
}

// Send sends req and returns the status and body of the answer.
func (s *Server) Send(req *http.Request) (int, []byte, error) {
	s.mu.Lock()
	client := s.signer().client
	s.mu.Unlock()
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	return resp.StatusCode, b, err
}

// InteractionBody is the JSON of an interaction as Discord sends it, with
// a fresh id and token registered (so its callbacks and webhooks are
// accepted); the callback deadline starts now.
func (s *Server) InteractionBody(in Interaction) (Pending, []byte) {
	p, d := s.newInteraction(in)
	return p, must(d)
}

// InteractHTTP delivers an interaction to the bot's endpoint at url, signed,
// and applies the bot's answer as its first callback (recorded as a POST
// to …/callback with the answer's body). It returns once the answer is
// applied; an answer Discord would refuse is recorded with its status and
// reported as an error.
func (s *Server) InteractHTTP(url string, in Interaction) (Pending, error) {
	p, body := s.InteractionBody(in)
	done := make(chan struct{})
	s.mu.Lock()
	s.signer().pending[p.Token] = done
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.out.pending, p.Token)
		s.mu.Unlock()
		close(done)
	}()
	req, err := s.SignedRequest(url, body)
	if err != nil {
		return p, err
	}
	s.mu.Lock()
	client := s.out.client
	s.mu.Unlock()
	resp, err := client.Do(req)
	if err != nil {
		return p, fmt.Errorf("POST %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return p, fmt.Errorf("POST %s: %s: %s", url, resp.Status, b)
	}
	c := Call{
		At: time.Now(), Method: http.MethodPost, Path: "/api/v9/interactions/" + p.ID + "/" + p.Token + "/callback",
		ContentType: resp.Header.Get("Content-Type"), HTTP: true,
	}
	if err := readBody(&http.Request{Body: resp.Body}, &c); err != nil {
		s.record(&c, http.StatusBadRequest)
		return p, fmt.Errorf("the endpoint's answer: %w", err)
	}
	status, refusal := s.callback(&c, p.ID, p.Token)
	s.record(&c, status)
	if s.opts.OnCall != nil {
		s.opts.OnCall(c)
	}
	if status >= 300 {
		b, _ := json.Marshal(refusal)
		return p, fmt.Errorf("the endpoint's answer was refused (%d): %s", status, b)
	}
	return p, nil
}

// settleHTTP waits (bounded) until the HTTP answer of the interaction with
// token is applied, so a webhook edit the bot sends right after its
// response is judged as Discord would: after the acknowledgement.
func (s *Server) settleHTTP(token string) {
	s.mu.Lock()
	var done chan struct{}
	if s.out != nil {
		done = s.out.pending[token]
	}
	s.mu.Unlock()
	if done == nil {
		return
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
	}
}
