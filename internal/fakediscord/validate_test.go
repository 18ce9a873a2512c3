package fakediscord

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// newSession starts a fake with a live gateway session, so interactions
// can be injected.
func newSession(t *testing.T, opts Options) *Server {
	t.Helper()
	opts.Token, opts.ExpectRefusals = "tok", true
	s := New(t, opts)
	dial(t, s, "Bot tok")
	if !s.WaitSessions(5*time.Second, 1, 0) {
		t.Fatal("no session")
	}
	return s
}

// pending injects a slash command and returns its callback and @original
// URLs.
func pending(t *testing.T, s *Server) (callback, original, followUp string) {
	t.Helper()
	p, err := s.Interact(Interaction{Type: ApplicationCommand, User: User{ID: "1"}, Data: Slash("help")})
	if err != nil {
		t.Fatal(err)
	}
	return s.URL() + "/api/v9/interactions/" + p.ID + "/" + p.Token + "/callback",
		s.URL() + "/api/v9/webhooks/100/" + p.Token + "/messages/@original",
		s.URL() + "/api/v9/webhooks/100/" + p.Token
}

// jsonOf marshals v for a request body.
func jsonOf(t *testing.T, v any) *strings.Reader {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return strings.NewReader(string(b))
}

func buttonsOf(n int, id func(i int) string) []any {
	var out []any
	for i := range n {
		out = append(out, map[string]any{"type": 2, "style": 1, "label": "b", "custom_id": id(i)})
	}
	return out
}

func row(items ...any) map[string]any { return map[string]any{"type": 1, "components": items} }

func embed(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

// TestRefusesWhatDiscordRefuses sends each message Discord refuses as an
// interaction's answer and checks the 400 and where the error points.
func TestRefusesWhatDiscordRefuses(t *testing.T) {
	s := newSession(t, Options{})
	long := func(n int) string { return strings.Repeat("é", n) } // 2 bytes each: lengths count characters
	var fields []any
	for range 26 {
		fields = append(fields, map[string]any{"name": "n", "value": "v"})
	}
	var tenEmbeds []any
	for range 11 {
		tenEmbeds = append(tenEmbeds, embed("title", "t"))
	}
	var sixRows []any
	for i := range 6 {
		sixRows = append(sixRows, row(buttonsOf(1, func(int) string { return fmt.Sprint("r", i) })...))
	}
	for _, tc := range []struct {
		name string
		data map[string]any
		code int    // 50035 or 50006
		path string // where the error points, in the nested errors
		want string // the error code there
	}{
		{"content of 2001 characters", map[string]any{"content": long(2001)}, 50035, "data.content", "BASE_TYPE_MAX_LENGTH"},
		{"empty message", map[string]any{"content": ""}, 50006, "", ""},
		{"repeated custom id", map[string]any{"content": "x", "components": []any{row(buttonsOf(2, func(int) string { return "hint:3:u:abc" })...)}},
			50035, "data.components.0.components.1.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED"},
		{"repeated custom id across rows", map[string]any{"content": "x", "components": []any{
			row(buttonsOf(1, func(int) string { return "a" })...), row(buttonsOf(1, func(int) string { return "a" })...)}},
			50035, "data.components.1.components.0.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED"},
		{"custom id of 101", map[string]any{"content": "x", "components": []any{row(buttonsOf(1, func(int) string { return long(101) })...)}},
			50035, "data.components.0.components.0.custom_id", "BASE_TYPE_BAD_LENGTH"},
		{"empty custom id", map[string]any{"content": "x", "components": []any{row(buttonsOf(1, func(int) string { return "" })...)}},
			50035, "data.components.0.components.0.custom_id", "BASE_TYPE_BAD_LENGTH"},
		{"six rows", map[string]any{"content": "x", "components": sixRows}, 50035, "data.components", "BASE_TYPE_BAD_LENGTH"},
		{"six buttons in a row", map[string]any{"content": "x", "components": []any{row(buttonsOf(6, func(i int) string { return fmt.Sprint(i) })...)}},
			50035, "data.components.0.components", "BASE_TYPE_BAD_LENGTH"},
		{"label of 81", map[string]any{"content": "x", "components": []any{row(map[string]any{"type": 2, "style": 1, "label": long(81), "custom_id": "a"})}},
			50035, "data.components.0.components.0.label", "BASE_TYPE_MAX_LENGTH"},
		{"eleven embeds", map[string]any{"embeds": tenEmbeds}, 50035, "data.embeds", "BASE_TYPE_MAX_LENGTH"},
		{"embed title of 257", map[string]any{"embeds": []any{embed("title", long(257))}}, 50035, "data.embeds.0.title", "BASE_TYPE_MAX_LENGTH"},
		{"embed description of 4097", map[string]any{"embeds": []any{embed("description", long(4097))}}, 50035, "data.embeds.0.description", "BASE_TYPE_MAX_LENGTH"},
		{"26 fields", map[string]any{"embeds": []any{embed("fields", fields)}}, 50035, "data.embeds.0.fields", "BASE_TYPE_MAX_LENGTH"},
		{"field name of 257", map[string]any{"embeds": []any{embed("fields", []any{map[string]any{"name": long(257), "value": "v"}})}},
			50035, "data.embeds.0.fields.0.name", "BASE_TYPE_BAD_LENGTH"},
		{"field value of 1025", map[string]any{"embeds": []any{embed("fields", []any{map[string]any{"name": "n", "value": long(1025)}})}},
			50035, "data.embeds.0.fields.0.value", "BASE_TYPE_BAD_LENGTH"},
		{"empty field value", map[string]any{"embeds": []any{embed("fields", []any{map[string]any{"name": "n", "value": ""}})}},
			50035, "data.embeds.0.fields.0.value", "BASE_TYPE_BAD_LENGTH"},
		{"footer of 2049", map[string]any{"embeds": []any{embed("footer", map[string]any{"text": long(2049)})}}, 50035, "data.embeds.0.footer.text", "BASE_TYPE_MAX_LENGTH"},
		{"author of 257", map[string]any{"embeds": []any{embed("author", map[string]any{"name": long(257)})}}, 50035, "data.embeds.0.author.name", "BASE_TYPE_MAX_LENGTH"},
		{"embeds over 6000 in all", map[string]any{"embeds": []any{embed("description", long(4000)), embed("description", long(2001))}},
			50035, "data.embeds", "MAX_EMBED_SIZE_EXCEEDED"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cb, _, _ := pending(t, s)
			code, body := do(t, "POST", cb, "", "application/json", jsonOf(t, map[string]any{"type": 4, "data": tc.data}))
			wantRefusal(t, code, body, tc.code, tc.path, tc.want)
			// A refused answer does not acknowledge: a valid one still goes.
			if code, body := do(t, "POST", cb, "", "application/json", strings.NewReader(`{"type":4,"data":{"content":"ok"}}`)); code != 204 {
				t.Errorf("valid answer after the refusal: %d %s", code, body)
			}
		})
	}
	// The same rules hold for follow-ups, edits and channel messages.
	cb, orig, follow := pending(t, s)
	do(t, "POST", cb, "", "application/json", strings.NewReader(`{"type":5}`))
	code, body := do(t, "PATCH", orig, "", "application/json", jsonOf(t, map[string]any{"content": long(2001)}))
	wantRefusal(t, code, body, 50035, "content", "BASE_TYPE_MAX_LENGTH")
	code, body = do(t, "PATCH", orig, "", "application/json", strings.NewReader(`{"content":""}`))
	wantRefusal(t, code, body, 50006, "", "")
	code, body = do(t, "POST", follow, "", "application/json", jsonOf(t, map[string]any{"content": "x", "components": []any{row(buttonsOf(2, func(int) string { return "same" })...)}}))
	wantRefusal(t, code, body, 50035, "components.0.components.1.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED")
	code, body = do(t, "POST", s.URL()+"/api/v9/channels/3/messages", "Bot tok", "application/json", strings.NewReader(`{"content":"  "}`))
	wantRefusal(t, code, body, 50006, "", "")
	if n := len(s.Refused()); n != len(s.Calls())-countOK(s) {
		t.Errorf("Refused() lists %d calls", n)
	}
}

func countOK(s *Server) int {
	n := 0
	for _, c := range s.Calls() {
		if c.Status != 400 {
			n++
		}
	}
	return n
}

// wantRefusal checks a 400 with Discord's error body: code, and for 50035
// an error of the wanted kind at path in the nested errors.
func wantRefusal(t *testing.T, status int, body string, code int, path, kind string) {
	t.Helper()
	if status != 400 {
		t.Fatalf("status %d (%s), want 400", status, body)
	}
	var e struct {
		Code    int            `json:"code"`
		Message string         `json:"message"`
		Errors  map[string]any `json:"errors"`
	}
	if err := json.Unmarshal([]byte(body), &e); err != nil || e.Code != code || e.Message == "" {
		t.Fatalf("body %s, want code %d and a message", body, code)
	}
	if code != 50035 {
		return
	}
	if e.Message != "Invalid Form Body" {
		t.Errorf("message %q, want Invalid Form Body", e.Message)
	}
	node := e.Errors
	if path != "" {
		for _, k := range strings.Split(path, ".") {
			next, ok := node[k].(map[string]any)
			if !ok {
				t.Fatalf("no error at %s (stops at %q) in %s", path, k, body)
			}
			node = next
		}
	}
	errs, _ := node["_errors"].([]any)
	for _, x := range errs {
		if m, _ := x.(map[string]any); m["code"] == kind && m["message"] != "" {
			return
		}
	}
	t.Errorf("errors at %s = %v, want %s", path, node["_errors"], kind)
}

func TestRefusesBadModals(t *testing.T) {
	s := newSession(t, Options{})
	input := func(kv ...any) map[string]any {
		m := map[string]any{"type": 4, "custom_id": "in", "label": "Puzzle", "style": 2}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	modal := func(title string, rows ...any) map[string]any {
		return map[string]any{"custom_id": "m", "title": title, "components": rows}
	}
	var sixRows []any
	for i := range 6 {
		sixRows = append(sixRows, row(input("custom_id", fmt.Sprint(i))))
	}
	for _, tc := range []struct {
		name string
		data map[string]any
		path string
		want string
	}{
		{"title of 46", modal(strings.Repeat("t", 46), row(input())), "data.title", "BASE_TYPE_BAD_LENGTH"},
		{"no title", modal("", row(input())), "data.title", "BASE_TYPE_BAD_LENGTH"},
		{"no rows", modal("t"), "data.components", "BASE_TYPE_BAD_LENGTH"},
		{"six rows", modal("t", sixRows...), "data.components", "BASE_TYPE_BAD_LENGTH"},
		{"custom id of 101", map[string]any{"custom_id": strings.Repeat("c", 101), "title": "t", "components": []any{row(input())}}, "data.custom_id", "BASE_TYPE_BAD_LENGTH"},
		{"label of 46", modal("t", row(input("label", strings.Repeat("l", 46)))), "data.components.0.components.0.label", "BASE_TYPE_BAD_LENGTH"},
		{"placeholder of 101", modal("t", row(input("placeholder", strings.Repeat("p", 101)))), "data.components.0.components.0.placeholder", "BASE_TYPE_MAX_LENGTH"},
		{"value of 4001", modal("t", row(input("value", strings.Repeat("v", 4001)))), "data.components.0.components.0.value", "BASE_TYPE_MAX_LENGTH"},
		{"max_length of 4001", modal("t", row(input("max_length", 4001))), "data.components.0.components.0.max_length", "NUMBER_TYPE_MAX"},
		{"min_length of 4001", modal("t", row(input("min_length", 4001))), "data.components.0.components.0.min_length", "NUMBER_TYPE_MAX"},
		{"value over max_length", modal("t", row(input("max_length", 3, "value", "four"))), "data.components.0.components.0.value", "BASE_TYPE_MAX_LENGTH"},
		{"repeated input id", modal("t", row(input()), row(input())), "data.components.1.components.0.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED"},
		{"a button in a modal", modal("t", row(map[string]any{"type": 2, "style": 1, "custom_id": "b", "label": "b"})), "data.components.0.components.0.type", "UNION_TYPE_CHOICES"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cb, _, _ := pending(t, s)
			code, body := do(t, "POST", cb, "", "application/json", jsonOf(t, map[string]any{"type": 9, "data": tc.data}))
			wantRefusal(t, code, body, 50035, tc.path, tc.want)
		})
	}
	cb, _, _ := pending(t, s)
	if code, body := do(t, "POST", cb, "", "application/json", jsonOf(t, map[string]any{"type": 9, "data": modal("Paste", row(input("max_length", 4000)))})); code != 204 {
		t.Errorf("a valid modal: %d %s", code, body)
	}
}

func TestRefusesBadCommands(t *testing.T) {
	s := New(t, Options{Token: "tok", ExpectRefusals: true})
	url := s.URL() + "/api/v9/applications/100/commands"
	opt := func(name string, required bool) map[string]any {
		return map[string]any{"type": 3, "name": name, "description": "d", "required": required}
	}
	cmd := func(kv ...any) map[string]any {
		m := map[string]any{"type": 1, "name": "solve", "description": "Solve"}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	var many, manyOpts, manyChoices []any
	for i := range 101 {
		many = append(many, cmd("name", fmt.Sprint("c", i)))
	}
	for i := range 26 {
		manyOpts = append(manyOpts, opt(fmt.Sprint("o", i), false))
		manyChoices = append(manyChoices, map[string]any{"name": "n", "value": fmt.Sprint(i)})
	}
	for _, tc := range []struct {
		name string
		cmds []any
		path string
		want string
	}{
		{"upper case name", []any{cmd("name", "Solve")}, "0.name", "APPLICATION_COMMAND_INVALID_NAME"},
		{"space in name", []any{cmd("name", "solve it")}, "0.name", "APPLICATION_COMMAND_INVALID_NAME"},
		{"name of 33", []any{cmd("name", strings.Repeat("s", 33))}, "0.name", "APPLICATION_COMMAND_INVALID_NAME"},
		{"no description", []any{cmd("description", "")}, "0.description", "BASE_TYPE_BAD_LENGTH"},
		{"description of 101", []any{cmd("description", strings.Repeat("d", 101))}, "0.description", "BASE_TYPE_BAD_LENGTH"},
		{"26 options", []any{cmd("options", manyOpts)}, "0.options", "BASE_TYPE_MAX_LENGTH"},
		{"required after optional", []any{cmd("options", []any{opt("a", false), opt("b", true)})}, "0.options.1.required", "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"},
		{"26 choices", []any{cmd("options", []any{map[string]any{"type": 3, "name": "a", "description": "d", "choices": manyChoices}})}, "0.options.0.choices", "BASE_TYPE_MAX_LENGTH"},
		{"option name upper case", []any{cmd("options", []any{opt("Puzzle", false)})}, "0.options.0.name", "APPLICATION_COMMAND_INVALID_NAME"},
		{"sub-command option required after optional", []any{cmd("options", []any{map[string]any{"type": 1, "name": "play", "description": "d",
			"options": []any{opt("a", false), opt("b", true)}}})}, "0.options.0.options.1.required", "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"},
		{"duplicate names", []any{cmd(), cmd()}, "1.name", "APPLICATION_COMMANDS_DUPLICATE_NAME"},
		{"101 commands", many, "", "APPLICATION_COMMANDS_TOO_MANY"},
		{"message command with a description", []any{map[string]any{"type": 3, "name": "Solve Sudoku", "description": "x"}}, "0.description", "APPLICATION_COMMAND_INVALID_DESCRIPTION"},
		{"autocomplete with choices", []any{cmd("options", []any{map[string]any{"type": 3, "name": "a", "description": "d", "autocomplete": true,
			"choices": []any{map[string]any{"name": "n", "value": "v"}}}})}, "0.options.0.autocomplete", "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_AND_CHOICES"},
		{"autocomplete on a boolean", []any{cmd("options", []any{map[string]any{"type": 5, "name": "a", "description": "d", "autocomplete": true}})}, "0.options.0.autocomplete", "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_INVALID"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body := do(t, "PUT", url, "Bot tok", "application/json", jsonOf(t, tc.cmds))
			wantRefusal(t, code, body, 50035, tc.path, tc.want)
		})
	}
	ok := []any{cmd("options", []any{opt("puzzle", true), opt("output", false)}), map[string]any{"type": 3, "name": "Solve Sudoku"}}
	if code, body := do(t, "PUT", url, "Bot tok", "application/json", jsonOf(t, ok)); code != 200 {
		t.Errorf("valid commands: %d %s", code, body)
	}
}

func TestInteractionLifetime(t *testing.T) {
	t.Parallel()
	// Stand-ins for 3 s and 15 min, long enough that a loaded machine
	// answers within the first.
	s := newSession(t, Options{InteractionDeadline: time.Second, TokenLifetime: 3 * time.Second})
	cb, orig, follow := pending(t, s)
	if code, body := do(t, "POST", cb, "", "application/json", strings.NewReader(`{"type":5}`)); code != 204 {
		t.Fatalf("deferral: %d %s", code, body)
	}
	code, body := do(t, "POST", cb, "", "application/json", strings.NewReader(`{"type":4,"data":{"content":"again"}}`))
	if code != 400 || !strings.Contains(body, `"code":40060`) || !strings.Contains(body, "already been acknowledged") {
		t.Errorf("second callback: %d %s, want 400 code 40060", code, body)
	}
	time.Sleep(1100 * time.Millisecond) // past the 3 s stand-in: edits still go
	if code, body := do(t, "PATCH", orig, "", "application/json", strings.NewReader(`{"content":"done"}`)); code != 200 {
		t.Errorf("edit within the token's life: %d %s", code, body)
	}
	late, _, _ := pending(t, s)
	time.Sleep(1100 * time.Millisecond)
	if code, body := do(t, "POST", late, "", "application/json", strings.NewReader(`{"type":5}`)); code != 404 || !strings.Contains(body, `"code":10062`) {
		t.Errorf("callback after the deadline: %d %s, want 404 code 10062", code, body)
	}
	time.Sleep(1000 * time.Millisecond) // past the 15 min stand-in
	for _, c := range []struct{ method, url string }{{"PATCH", orig}, {"POST", follow}} {
		if code, body := do(t, c.method, c.url, "", "application/json", strings.NewReader(`{"content":"too late"}`)); code != 401 || !strings.Contains(body, `"code":50027`) {
			t.Errorf("%s after the token expired: %d %s, want 401 code 50027", c.method, code, body)
		}
	}
}

// TestAutocompleteResults: an autocomplete interaction takes only a type-8
// result, within Discord's limits (at most 25 choices, names of 1 to 100
// characters, string values of at most 100), and no other interaction
// takes one; after it there is no message to edit.
func TestAutocompleteResults(t *testing.T) {
	s := newSession(t, Options{})
	choice := func(name, value string) map[string]any { return map[string]any{"name": name, "value": value} }
	var many []any
	for i := range 26 {
		many = append(many, choice(fmt.Sprint("n", i), fmt.Sprint(i)))
	}
	auto := func() (string, Pending) {
		t.Helper()
		p, err := s.Interact(Interaction{Type: Autocomplete, User: User{ID: "1"}, Data: Slash("profile", Typing(Str("timezone", "par")))})
		if err != nil {
			t.Fatal(err)
		}
		return s.URL() + "/api/v9/interactions/" + p.ID + "/" + p.Token + "/callback", p
	}
	for _, tc := range []struct {
		name string
		body map[string]any
		path string
		want string
	}{
		{"26 choices", map[string]any{"type": 8, "data": map[string]any{"choices": many}}, "data.choices", "BASE_TYPE_MAX_LENGTH"},
		{"name of 101", map[string]any{"type": 8, "data": map[string]any{"choices": []any{choice(strings.Repeat("n", 101), "v")}}}, "data.choices.0.name", "BASE_TYPE_BAD_LENGTH"},
		{"empty name", map[string]any{"type": 8, "data": map[string]any{"choices": []any{choice("", "v")}}}, "data.choices.0.name", "BASE_TYPE_BAD_LENGTH"},
		{"value of 101", map[string]any{"type": 8, "data": map[string]any{"choices": []any{choice("n", strings.Repeat("v", 101))}}}, "data.choices.0.value", "BASE_TYPE_MAX_LENGTH"},
		{"no choices", map[string]any{"type": 8, "data": map[string]any{}}, "data.choices", "BASE_TYPE_REQUIRED"},
		{"a message instead", map[string]any{"type": 4, "data": map[string]any{"content": "hi"}}, "type", "INTERACTION_CALLBACK_TYPE_INVALID"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cb, _ := auto()
			code, body := do(t, "POST", cb, "", "application/json", jsonOf(t, tc.body))
			wantRefusal(t, code, body, 50035, tc.path, tc.want)
		})
	}
	cb, p := auto()
	ok := map[string]any{"type": 8, "data": map[string]any{"choices": append(many[:25:25], choice(strings.Repeat("n", 100), strings.Repeat("v", 100)))[1:]}}
	if code, body := do(t, "POST", cb, "", "application/json", jsonOf(t, ok)); code != 204 {
		t.Errorf("25 choices at the limits: %d %s", code, body)
	}
	orig := s.URL() + "/api/v9/webhooks/100/" + p.Token + "/messages/@original"
	if code, _ := do(t, "PATCH", orig, "", "application/json", strings.NewReader(`{"content":"x"}`)); code != 404 {
		t.Errorf("edit after an autocomplete result: %d, want 404", code)
	}
	slash, _, _ := pending(t, s)
	code, body := do(t, "POST", slash, "", "application/json", jsonOf(t, map[string]any{"type": 8, "data": map[string]any{"choices": []any{}}}))
	wantRefusal(t, code, body, 50035, "type", "INTERACTION_CALLBACK_TYPE_INVALID")
}
