package fakediscord

import (
	"strings"
)

// Components V2: a message sent with flag IS_COMPONENTS_V2 (1<<15) is laid
// out by its components alone. Discord's rules, as its component
// reference states them:
//
//   - content, embeds, poll and stickers are not allowed beside the flag
//     (an edit that sets the flag must clear them);
//   - the flag cannot be removed once a message has it;
//   - top-level components are action rows (1), sections (9), text
//     displays (10), media galleries (12), files (13), separators (14) and
//     containers (17);
//   - at most 40 components in all, nested ones counted (a container, its
//     children, a row and its buttons, a section, its texts and accessory);
//   - the text of all components together is at most 4000 characters;
//   - a section holds 1 to 3 text displays and an accessory (a button or a
//     thumbnail); a media gallery 1 to 10 items; a separator's spacing is 1
//     or 2; a container holds rows, texts, sections, galleries, separators
//     and files (not another container), at most 10 (Discord's published
//     typings say so; the reference leaves it out: the fake holds the
//     stricter reading), its accent colour within 0x000000–0xFFFFFF;
//   - media URLs are http(s) or attachment://name, where name is a file
//     uploaded with the message (or already on it); a file component takes
//     only attachment:// references;
//   - descriptions (alt text) are at most 1024 characters; component ids
//     are unique in the message, as custom ids are.

// flagComponentsV2 is the message flag IS_COMPONENTS_V2.
const flagComponentsV2 = 1 << 15

// Components V2 limits.
const (
	maxV2Components      = 40
	maxV2Text            = 4000
	maxSectionTexts      = 3
	maxGalleryItems      = 10
	maxContainerChildren = 10
	maxMediaDescription  = 1024
)

// v2TopLevel and v2InContainer are the component types allowed at the top
// of a V2 message and inside a container.
var (
	v2TopLevel    = map[int]bool{1: true, 9: true, 10: true, 12: true, 13: true, 14: true, 17: true}
	v2InContainer = map[int]bool{1: true, 9: true, 10: true, 12: true, 13: true, 14: true}
)

// msgCtx is what a message's check needs besides its body.
type msgCtx struct {
	// files are the names of the files uploaded with the request, and,
	// for an edit, of the attachments the message already has.
	files []string
	// v2 is set when the message is a Components V2 one: the flag is in
	// the body, or already on the message being edited.
	v2 bool
	// after is the message as it would be once an edit applies (nil for a
	// new message: the body itself).
	after map[string]any
}

// isV2 reports whether flags (a JSON number or nil) has IS_COMPONENTS_V2.
func isV2(flags any) bool {
	f, _ := number(flags)
	return f&flagComponentsV2 != 0
}

// checkLegacyFields refuses what a V2 message may not carry beside its
// components.
func checkLegacyFields(e *formErrors, prefix string, m map[string]any) {
	const code = "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"
	if s, _ := m["content"].(string); s != "" {
		e.add(join(prefix, "content"), code, "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2")
	}
	if len(list(m["embeds"])) > 0 {
		e.add(join(prefix, "embeds"), code, "The 'embeds' field cannot be used when using MessageFlags.IS_COMPONENTS_V2")
	}
	if m["poll"] != nil {
		e.add(join(prefix, "poll"), code, "The 'poll' field cannot be used when using MessageFlags.IS_COMPONENTS_V2")
	}
	if len(list(m["sticker_ids"])) > 0 {
		e.add(join(prefix, "sticker_ids"), code, "The 'sticker_ids' field cannot be used when using MessageFlags.IS_COMPONENTS_V2")
	}
}

// v2Check walks one V2 message's components.
type v2Check struct {
	e       *formErrors
	mc      msgCtx
	count   int // components so far, nested ones included
	text    int // characters of displayable text so far
	ids     map[int]bool
	customs map[string]bool
}

// checkV2Components validates a V2 message's components at path.
func checkV2Components(e *formErrors, path string, comps []any, mc msgCtx) {
	c := &v2Check{e: e, mc: mc, ids: map[int]bool{}, customs: map[string]bool{}}
	for i, v := range comps {
		c.component(join(path, i), object(v), v2TopLevel, "(1, 9, 10, 12, 13, 14, 17)")
	}
	if c.count > maxV2Components {
		e.add(path, "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED", "The message has %d components, more than the %d allowed (nested components count).", c.count, maxV2Components)
	}
	if c.text > maxV2Text {
		e.add(path, "COMPONENT_DISPLAYABLE_TEXT_SIZE_EXCEEDED", "Components displayable text size exceeds maximum size of %d", maxV2Text)
	}
}

// component checks one component whose type must be in allowed (named by
// choices in the error).
func (c *v2Check) component(path string, m map[string]any, allowed map[int]bool, choices string) {
	if m == nil {
		c.e.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
		return
	}
	c.count++
	if id, ok := number(m["id"]); ok {
		if c.ids[id] {
			c.e.add(join(path, "id"), "COMPONENT_ID_DUPLICATED", "Component id %d is used more than once in the message.", id)
		}
		c.ids[id] = true
	}
	t, _ := number(m["type"])
	if !allowed[t] {
		c.e.add(join(path, "type"), "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of %s.", choices)
		return
	}
	switch t {
	case 1:
		c.row(path, m)
	case 2:
		c.button(path, m)
	case 9:
		c.section(path, m)
	case 10:
		n := runes(m["content"])
		if n == 0 {
			c.e.add(join(path, "content"), "BASE_TYPE_REQUIRED", "This field is required")
		}
		c.text += n
	case 11:
		c.media(join(path, "media"), object(m["media"]), false)
		c.description(join(path, "description"), m["description"])
	case 12:
		items := list(m["items"])
		if len(items) < 1 || len(items) > maxGalleryItems {
			c.e.add(join(path, "items"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and %d in length.", maxGalleryItems)
		}
		for i, v := range items {
			it := object(v)
			c.media(join(path, "items", i, "media"), object(it["media"]), false)
			c.description(join(path, "items", i, "description"), it["description"])
		}
	case 13:
		c.media(join(path, "file"), object(m["file"]), true)
	case 14:
		if sp, ok := m["spacing"]; ok && sp != nil {
			if n, _ := number(sp); n != 1 && n != 2 {
				c.e.add(join(path, "spacing"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
			}
		}
		if d, ok := m["divider"]; ok && d != nil {
			if _, isBool := d.(bool); !isBool {
				c.e.add(join(path, "divider"), "BASE_TYPE_BOOLEAN", "Must be either true or false.")
			}
		}
	case 17:
		kids := list(m["components"])
		if len(kids) < 1 || len(kids) > maxContainerChildren {
			c.e.add(join(path, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and %d in length.", maxContainerChildren)
		}
		if ac, ok := m["accent_color"]; ok && ac != nil {
			if n, isNum := number(ac); !isNum || n < 0 || n > 0xFFFFFF {
				c.e.add(join(path, "accent_color"), "NUMBER_TYPE_MAX", "int value should be between 0 and 16777215.")
			}
		}
		for i, v := range kids {
			c.component(join(path, "components", i), object(v), v2InContainer, "(1, 9, 10, 12, 13, 14)")
		}
	}
}

// row checks an action row: 1 to 5 buttons, or one select menu.
func (c *v2Check) row(path string, m map[string]any) {
	items := list(m["components"])
	if len(items) < 1 || len(items) > maxRowItems {
		c.e.add(join(path, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and %d in length.", maxRowItems)
	}
	selects := 0
	for i, v := range items {
		it := object(v)
		t, _ := number(it["type"])
		if t >= 3 && t <= 8 && t != 4 {
			selects++
			c.count++
			id, _ := it["custom_id"].(string)
			c.custom(join(path, "components", i, "custom_id"), id)
			continue
		}
		c.component(join(path, "components", i), it, map[int]bool{2: true}, "(2, 3, 5, 6, 7, 8)")
	}
	if selects > 0 && len(items) > 1 {
		c.e.add(join(path, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "An action row with a select menu holds nothing else.")
	}
}

// button checks a button's style, label and custom id.
func (c *v2Check) button(path string, b map[string]any) {
	style, _ := number(b["style"])
	if style < 1 || style > 6 {
		c.e.add(join(path, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.")
	}
	maxLen(c.e, join(path, "label"), b["label"], maxButtonLabel)
	c.text += runes(b["label"])
	if style == 5 || style == 6 {
		return
	}
	id, _ := b["custom_id"].(string)
	c.custom(join(path, "custom_id"), id)
}

// custom checks a custom id's length and that it is unique.
func (c *v2Check) custom(path, id string) {
	between(c.e, path, id, 1, maxCustomID)
	if id != "" && c.customs[id] {
		c.e.add(path, "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
	}
	c.customs[id] = true
}

// section checks 1 to 3 text displays and an accessory.
func (c *v2Check) section(path string, m map[string]any) {
	texts := list(m["components"])
	if len(texts) < 1 || len(texts) > maxSectionTexts {
		c.e.add(join(path, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and %d in length.", maxSectionTexts)
	}
	for i, v := range texts {
		c.component(join(path, "components", i), object(v), map[int]bool{10: true}, "(10)")
	}
	acc := object(m["accessory"])
	if acc == nil {
		c.e.add(join(path, "accessory"), "BASE_TYPE_REQUIRED", "This field is required")
		return
	}
	c.component(join(path, "accessory"), acc, map[int]bool{2: true, 11: true}, "(2, 11)")
}

// media checks an unfurled media item's URL: http(s), or an attachment
// of the message (the only kind a file component takes).
func (c *v2Check) media(path string, m map[string]any, attachmentOnly bool) {
	u, _ := m["url"].(string)
	if u == "" {
		c.e.add(join(path, "url"), "BASE_TYPE_REQUIRED", "This field is required")
		return
	}
	if name, ok := strings.CutPrefix(u, "attachment://"); ok {
		for _, f := range c.mc.files {
			if f == name {
				return
			}
		}
		c.e.add(join(path, "url"), "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND", "No attachment named %q was sent with the message.", name)
		return
	}
	if attachmentOnly || !(strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://")) {
		c.e.add(join(path, "url"), "UNFURLED_MEDIA_ITEM_INVALID_URL", "Media URLs must be http(s) or attachment:// references (a file takes attachment:// only).")
	}
}

// description checks a media item's alt text and counts it.
func (c *v2Check) description(path string, v any) {
	maxLen(c.e, path, v, maxMediaDescription)
	c.text += runes(v)
}
