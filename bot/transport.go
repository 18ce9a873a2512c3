package bot

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// discordHost is the host whose requests DISCORD_API_BASE redirects.
// discordgo computes its Endpoint* strings from it once, at init, so the
// transport is the one place that can change where they go.
const discordHost = "discord.com"

// rewriteTransport sends requests for https://discord.com/... to another
// origin, keeping the path and query. Everything else passes through.
type rewriteTransport struct {
	base *url.URL
	next http.RoundTripper
}

// newRewriteTransport returns a transport for the origin apiBase (e.g.
// http://127.0.0.1:8080), or next itself when apiBase is empty.
func newRewriteTransport(apiBase string, next http.RoundTripper) (http.RoundTripper, error) {
	if next == nil {
		next = http.DefaultTransport
	}
	if apiBase == "" {
		return next, nil
	}
	u, err := url.Parse(apiBase)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("DISCORD_API_BASE=%q: want an origin such as http://127.0.0.1:8080", apiBase)
	}
	return &rewriteTransport{base: u, next: next}, nil
}

// RoundTrip implements http.RoundTripper. It never modifies the caller's
// request (the RoundTripper contract): the rewrite is done on a clone.
func (t *rewriteTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Scheme != "https" || !strings.EqualFold(req.URL.Host, discordHost) {
		return t.next.RoundTrip(req)
	}
	r := req.Clone(req.Context())
	r.URL.Scheme = t.base.Scheme
	r.URL.Host = t.base.Host
	if p := strings.TrimSuffix(t.base.Path, "/"); p != "" {
		r.URL.Path = p + r.URL.Path
		if r.URL.RawPath != "" {
			r.URL.RawPath = p + r.URL.RawPath
		}
	}
	r.Host = t.base.Host
	return t.next.RoundTrip(r)
}
