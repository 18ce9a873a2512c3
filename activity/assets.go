package activity

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"net/http"
	"path"
	"strings"
)

// The page: index.html names its script and style by content hash
// ("app.3f9c2a1b7d.js"), so they are cached for good while the HTML, which
// Discord's proxy strips of cache headers, is fetched each time. Each
// file is gzipped once, at start.

//go:embed web
var webFS embed.FS

// asset is one file as served.
type asset struct {
	body, gz []byte
	ctype    string
}

type assets struct {
	index  asset
	byName map[string]asset // hashed name → file
	// Names maps a source name ("app.js") to its hashed name.
	names map[string]string
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

func loadAssets() (*assets, error) {
	a := &assets{byName: map[string]asset{}, names: map[string]string{}}
	types := map[string]string{".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
	entries, err := webFS.ReadDir("web")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		name := e.Name()
		ext := path.Ext(name)
		if name == "index.html" || types[ext] == "" {
			continue
		}
		body, err := webFS.ReadFile("web/" + name)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(body)
		hashed := strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:5]) + ext
		a.names[name] = hashed
		a.byName[hashed] = asset{body: body, gz: gzipped(body), ctype: types[ext]}
	}
	page, err := webFS.ReadFile("web/index.html")
	if err != nil {
		return nil, err
	}
	for src, hashed := range a.names {
		page = bytes.ReplaceAll(page, []byte("{{"+src+"}}"), []byte("/assets/"+hashed))
	}
	if i := bytes.Index(page, []byte("{{")); i >= 0 {
		return nil, fmt.Errorf("activity: index.html names an asset that isn't there: %.40s", page[i:])
	}
	a.index = asset{body: page, gz: gzipped(page), ctype: "text/html; charset=utf-8"}
	return a, nil
}

func (a asset) serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", a.ctype)
	h.Set("Vary", "Accept-Encoding")
	body := a.body
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		h.Set("Content-Encoding", "gzip")
		body = a.gz
	}
	h.Set("Content-Length", fmt.Sprint(len(body)))
	w.Write(body)
}

func (a *assets) serveIndex(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'self' https://discord.com https://*.discordsays.com")
	a.index.serve(w, r)
}

func (a *assets) serveAsset(w http.ResponseWriter, r *http.Request) {
	f, ok := a.byName[r.PathValue("name")]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	f.serve(w, r)
}

// Weight is the page's size as served gzipped: the HTML and every asset.
func (a *assets) weight() (plain, gz int) {
	plain, gz = len(a.index.body), len(a.index.gz)
	for _, f := range a.byName {
		plain += len(f.body)
		gz += len(f.gz)
	}
	return plain, gz
}
