package fakediscord

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The fake refuses what Discord refuses, with Discord's error shape: a 400
// whose body is
//
//	{"code": 50035, "message": "Invalid Form Body",
//	 "errors": {"data": {"components": {"0": {"components": {"1":
//	   {"custom_id": {"_errors": [{"code": "...", "message": "..."}]}}}}}}}}
//
// The limits are Discord's documented ones (API v9/v10); lengths count
// Unicode code points, as Discord does. A message with nothing to show gets
// Discord's own 50006 instead.

// formErrors collects the failures of one request body by JSON path.
type formErrors struct {
	list []fieldError
}

type fieldError struct {
	path, code, msg string
}

func (e *formErrors) add(path, code, format string, args ...any) {
	e.list = append(e.list, fieldError{path: path, code: code, msg: fmt.Sprintf(format, args...)})
}

func (e *formErrors) ok() bool { return len(e.list) == 0 }

// body is Discord's error body: the errors nested along their paths.
func (e *formErrors) body() map[string]any {
	root := map[string]any{}
	for _, f := range e.list {
		node := root
		if f.path != "" {
			for _, k := range strings.Split(f.path, ".") {
				next, _ := node[k].(map[string]any)
				if next == nil {
					next = map[string]any{}
					node[k] = next
				}
				node = next
			}
		}
		errs, _ := node["_errors"].([]any)
		node["_errors"] = append(errs, map[string]any{"code": f.code, "message": f.msg})
	}
	return map[string]any{"code": 50035, "message": "Invalid Form Body", "errors": root}
}

// String lists the failures as "path: CODE message", for test failures.
func (e *formErrors) String() string {
	var parts []string
	for _, f := range e.list {
		parts = append(parts, f.path+": "+f.code+" "+f.msg)
	}
	return strings.Join(parts, "; ")
}

// join makes a JSON path.
func join(prefix string, keys ...any) string {
	parts := []string{}
	if prefix != "" {
		parts = append(parts, prefix)
	}
	for _, k := range keys {
		parts = append(parts, fmt.Sprint(k))
	}
	return strings.Join(parts, ".")
}

// Discord's limits, in code points.
const (
	maxContent       = 2000
	maxEmbeds        = 10
	maxEmbedTitle    = 256
	maxEmbedDesc     = 4096
	maxEmbedFields   = 25
	maxFieldName     = 256
	maxFieldValue    = 1024
	maxFooter        = 2048
	maxAuthor        = 256
	maxEmbedTotal    = 6000
	maxRows          = 5
	maxRowItems      = 5
	maxButtonLabel   = 80
	maxCustomID      = 100
	maxModalTitle    = 45
	maxInputLabel    = 45
	maxPlaceholder   = 100
	maxInputLength   = 4000
	maxFiles         = 10
	maxCommands      = 100 // chat-input commands; user and message commands have 5 each
	maxMenuCommands  = 5
	maxOptions       = 25
	maxChoices       = 25
	maxCommandName   = 32
	maxDescription   = 100
	maxChoiceName    = 100
	maxChoiceStrings = 100
)

func runes(v any) int {
	s, _ := v.(string)
	return utf8.RuneCountInString(s)
}

// maxLen refuses a string field longer than n.
func maxLen(e *formErrors, path string, v any, n int) {
	if runes(v) > n {
		e.add(path, "BASE_TYPE_MAX_LENGTH", "Must be %d or fewer in length.", n)
	}
}

// between refuses a string field shorter than lo or longer than hi
// (missing counts as empty).
func between(e *formErrors, path string, v any, lo, hi int) {
	if n := runes(v); n < lo || n > hi {
		e.add(path, "BASE_TYPE_BAD_LENGTH", "Must be between %d and %d in length.", lo, hi)
	}
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

func object(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func number(v any) (int, bool) {
	switch n := v.(type) {
	case float64:
		return int(n), true
	case int:
		return n, true // a map a test built, not decoded JSON
	}
	return 0, false
}

// checkMessage validates a message payload (content, embeds, components,
// files) found at prefix; mc says whether it is a Components V2 message
// (components_v2.go) and which files it may refer to.
func checkMessage(e *formErrors, prefix string, m map[string]any, mc msgCtx) {
	files := len(mc.files)
	if mc.v2 {
		after := mc.after
		if after == nil {
			after = m
		}
		checkLegacyFields(e, prefix, after)
	}
	maxLen(e, join(prefix, "content"), m["content"], maxContent)
	embeds := list(m["embeds"])
	if len(embeds) > maxEmbeds {
		e.add(join(prefix, "embeds"), "BASE_TYPE_MAX_LENGTH", "Must be %d or fewer in length.", maxEmbeds)
	}
	total := 0
	for i, v := range embeds {
		total += checkEmbed(e, join(prefix, "embeds", i), object(v))
	}
	if total > maxEmbedTotal {
		e.add(join(prefix, "embeds"), "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of %d", maxEmbedTotal)
	}
	if mc.v2 {
		checkV2Components(e, join(prefix, "components"), list(m["components"]), mc)
	} else {
		checkComponents(e, join(prefix, "components"), list(m["components"]))
	}
	if files > maxFiles {
		e.add(join(prefix, "attachments"), "BASE_TYPE_MAX_LENGTH", "Must be %d or fewer in length.", maxFiles)
	}
}

// checkEmbed validates one embed and returns its size towards the total.
func checkEmbed(e *formErrors, path string, em map[string]any) int {
	if em == nil {
		e.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
		return 0
	}
	maxLen(e, join(path, "title"), em["title"], maxEmbedTitle)
	maxLen(e, join(path, "description"), em["description"], maxEmbedDesc)
	size := runes(em["title"]) + runes(em["description"])
	fields := list(em["fields"])
	if len(fields) > maxEmbedFields {
		e.add(join(path, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be %d or fewer in length.", maxEmbedFields)
	}
	for i, v := range fields {
		f := object(v)
		between(e, join(path, "fields", i, "name"), f["name"], 1, maxFieldName)
		between(e, join(path, "fields", i, "value"), f["value"], 1, maxFieldValue)
		size += runes(f["name"]) + runes(f["value"])
	}
	if f := object(em["footer"]); f != nil {
		maxLen(e, join(path, "footer", "text"), f["text"], maxFooter)
		size += runes(f["text"])
	}
	if a := object(em["author"]); a != nil {
		maxLen(e, join(path, "author", "name"), a["name"], maxAuthor)
		size += runes(a["name"])
	}
	return size
}

// checkComponents validates a message's action rows: at most 5 rows of 1–5
// buttons, each with a custom id of 1–100 characters unique in the
// message (link buttons have a url instead) and a label of at most 80.
func checkComponents(e *formErrors, path string, rows []any) {
	if len(rows) > maxRows {
		e.add(path, "BASE_TYPE_BAD_LENGTH", "Must be between 0 and %d in length.", maxRows)
	}
	// A button is checked as in a V2 layout (style, label, a custom id
	// unique in the message).
	buttons := &v2Check{e: e, customs: map[string]bool{}}
	for i, v := range rows {
		row := object(v)
		rp := join(path, i)
		if t, _ := number(row["type"]); t != 1 {
			e.add(join(rp, "type"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "Top-level components must be action rows (type 1), not %v", row["type"])
			continue
		}
		items := list(row["components"])
		if len(items) < 1 || len(items) > maxRowItems {
			e.add(join(rp, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and %d in length.", maxRowItems)
		}
		for j, item := range items {
			b := object(item)
			bp := join(rp, "components", j)
			t, _ := number(b["type"])
			if t != 2 {
				if t < 3 || t > 8 {
					e.add(join(bp, "type"), "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (2, 3, 5, 6, 7, 8) in a message.")
				}
				continue
			}
			buttons.button(bp, b)
		}
	}
}

// emptyMessage reports whether m shows nothing: no content, embeds,
// components or files. Discord refuses such a message with 50006.
func emptyMessage(m map[string]any, files int) bool {
	s, _ := m["content"].(string)
	return strings.TrimSpace(s) == "" && len(list(m["embeds"])) == 0 && len(list(m["components"])) == 0 &&
		len(list(m["attachments"])) == 0 && files == 0 && m["sticker_ids"] == nil && m["poll"] == nil
}

// checkModal validates the data of a modal callback (type 9).
func checkModal(e *formErrors, d map[string]any) {
	between(e, "data.custom_id", d["custom_id"], 1, maxCustomID)
	between(e, "data.title", d["title"], 1, maxModalTitle)
	rows := list(d["components"])
	if len(rows) < 1 || len(rows) > maxRows {
		e.add("data.components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and %d in length.", maxRows)
	}
	seen := map[string]bool{}
	for i, v := range rows {
		rp := join("data.components", i)
		row := object(v)
		items := list(row["components"])
		if t, _ := number(row["type"]); t != 1 || len(items) != 1 {
			e.add(rp, "BASE_TYPE_BAD_LENGTH", "A modal row must be an action row (type 1) holding one text input.")
			continue
		}
		in := object(items[0])
		ip := join(rp, "components", 0)
		if t, _ := number(in["type"]); t != 4 {
			e.add(join(ip, "type"), "UNION_TYPE_CHOICES", "Value of field \"type\" must be 4 (text input) in a modal.")
			continue
		}
		id, _ := in["custom_id"].(string)
		between(e, join(ip, "custom_id"), id, 1, maxCustomID)
		if id != "" && seen[id] {
			e.add(join(ip, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
		}
		seen[id] = true
		if style, _ := number(in["style"]); style != 1 && style != 2 {
			e.add(join(ip, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
		}
		between(e, join(ip, "label"), in["label"], 1, maxInputLabel)
		maxLen(e, join(ip, "placeholder"), in["placeholder"], maxPlaceholder)
		maxLen(e, join(ip, "value"), in["value"], maxInputLength)
		lo, hasLo := number(in["min_length"])
		hi, hasHi := number(in["max_length"])
		if hasLo && (lo < 0 || lo > maxInputLength) {
			e.add(join(ip, "min_length"), "NUMBER_TYPE_MAX", "int value should be between 0 and %d.", maxInputLength)
		}
		if hasHi && (hi < 1 || hi > maxInputLength) {
			e.add(join(ip, "max_length"), "NUMBER_TYPE_MAX", "int value should be between 1 and %d.", maxInputLength)
		}
		if hasHi && runes(in["value"]) > hi {
			e.add(join(ip, "value"), "BASE_TYPE_MAX_LENGTH", "Must be %d or fewer in length.", hi)
		}
		if hasLo && hasHi && lo > hi {
			e.add(join(ip, "min_length"), "BASE_TYPE_BAD_LENGTH", "min_length must not exceed max_length.")
		}
	}
}

// commandName is Discord's pattern for chat-input command and option names
// (which must also be lower case).
var commandName = regexp.MustCompile(`^[-_\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// checkCommands validates a bulk overwrite of application commands.
func checkCommands(e *formErrors, cmds []map[string]any) {
	perType := map[int]int{}
	names := map[string]int{}
	for i, c := range cmds {
		p := strconv.Itoa(i)
		t, ok := number(c["type"])
		if !ok {
			t = 1
		}
		perType[t]++
		name, _ := c["name"].(string)
		key := strconv.Itoa(t) + "/" + name
		if prev, dup := names[key]; dup {
			e.add(join(p, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique (also used by command %d)", prev)
		}
		names[key] = i
		switch t {
		case 1:
			checkName(e, join(p, "name"), name)
			between(e, join(p, "description"), c["description"], 1, maxDescription)
			checkOptions(e, join(p, "options"), list(c["options"]), 0)
		case 2, 3:
			between(e, join(p, "name"), name, 1, maxCommandName)
			if runes(c["description"]) != 0 {
				e.add(join(p, "description"), "APPLICATION_COMMAND_INVALID_DESCRIPTION", "User and message commands cannot have a description.")
			}
			if len(list(c["options"])) != 0 {
				e.add(join(p, "options"), "APPLICATION_COMMAND_INVALID_OPTIONS", "User and message commands cannot have options.")
			}
		case EntryPointCommand:
			// The rest (embedded app, global, handler, one) in checkEntryPoints.
			checkName(e, join(p, "name"), name)
			between(e, join(p, "description"), c["description"], 1, maxDescription)
			if len(list(c["options"])) != 0 {
				e.add(join(p, "options"), "APPLICATION_COMMAND_INVALID_OPTIONS", "Entry-point commands cannot have options.")
			}
		default:
			e.add(join(p, "type"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4}.")
		}
	}
	if perType[1] > maxCommands {
		e.add("", "APPLICATION_COMMANDS_TOO_MANY", "Maximum number of chat input commands reached (%d)", maxCommands)
	}
	for _, t := range []int{2, 3} {
		if perType[t] > maxMenuCommands {
			e.add("", "APPLICATION_COMMANDS_TOO_MANY", "Maximum number of type %d commands reached (%d)", t, maxMenuCommands)
		}
	}
}

func checkName(e *formErrors, path, name string) {
	if !commandName.MatchString(name) || strings.ToLower(name) != name {
		e.add(path, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid: 1-32 lower-case letters, digits, '-' or '_'.")
	}
}

// checkOptions validates options (depth 0) and the options of
// sub-commands and groups.
func checkOptions(e *formErrors, path string, opts []any, depth int) {
	if len(opts) > maxOptions {
		e.add(path, "BASE_TYPE_MAX_LENGTH", "Must be %d or fewer in length.", maxOptions)
	}
	optional := false
	names := map[string]bool{}
	for i, v := range opts {
		o := object(v)
		op := join(path, i)
		name, _ := o["name"].(string)
		checkName(e, join(op, "name"), name)
		if names[name] {
			e.add(join(op, "name"), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Option names must be unique.")
		}
		names[name] = true
		between(e, join(op, "description"), o["description"], 1, maxDescription)
		t, _ := number(o["type"])
		if t < 1 || t > 11 {
			e.add(join(op, "type"), "BASE_TYPE_CHOICES", "Value must be one of 1–11.")
		}
		if t == 1 || t == 2 {
			if depth >= 2 || (t == 2 && depth >= 1) {
				e.add(join(op, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Sub-commands nest at most in one group.")
			}
			checkOptions(e, join(op, "options"), list(o["options"]), depth+1)
			continue
		}
		if req, _ := o["required"].(bool); req && optional {
			e.add(join(op, "required"), "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "Required options must be placed before non-required options")
		} else if !req {
			optional = true
		}
		choices := list(o["choices"])
		if auto, _ := o["autocomplete"].(bool); auto {
			if t != 3 && t != 4 && t != 10 {
				e.add(join(op, "autocomplete"), "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_INVALID", "Autocomplete is only for string, integer and number options.")
			}
			if len(choices) > 0 {
				e.add(join(op, "autocomplete"), "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_AND_CHOICES", "Autocomplete cannot be set with choices.")
			}
		}
		if len(choices) > maxChoices {
			e.add(join(op, "choices"), "BASE_TYPE_MAX_LENGTH", "Must be %d or fewer in length.", maxChoices)
		}
		for j, cv := range choices {
			ch := object(cv)
			between(e, join(op, "choices", j, "name"), ch["name"], 1, maxChoiceName)
			if s, ok := ch["value"].(string); ok {
				maxLen(e, join(op, "choices", j, "value"), s, maxChoiceStrings)
			}
		}
	}
}

// checkAutocomplete validates the data of an autocomplete result (callback
// type 8): choices is required, at most 25, each a name of 1 to 100
// characters and a value (a string of at most 100, or a number).
func checkAutocomplete(e *formErrors, data map[string]any) {
	raw, ok := data["choices"]
	if !ok || raw == nil {
		e.add("data.choices", "BASE_TYPE_REQUIRED", "This field is required")
		return
	}
	choices, ok := raw.([]any)
	if !ok {
		e.add("data.choices", "BASE_TYPE_ARRAY", "Must be an array.")
		return
	}
	if len(choices) > maxChoices {
		e.add("data.choices", "BASE_TYPE_MAX_LENGTH", "Must be %d or fewer in length.", maxChoices)
	}
	for j, cv := range choices {
		ch := object(cv)
		between(e, join("data.choices", j, "name"), ch["name"], 1, maxChoiceName)
		switch v := ch["value"].(type) {
		case string:
			maxLen(e, join("data.choices", j, "value"), v, maxChoiceStrings)
		case float64:
		default:
			e.add(join("data.choices", j, "value"), "BASE_TYPE_REQUIRED", "This field is required")
		}
	}
}
