package commands

import "unicode/utf8"

// Discord's limits on what one message, component or modal may hold. Discord
// counts characters as Unicode code points (not bytes, not UTF-16 units), so
// every length here is in runes. They are defined here once: the commands
// shape their replies within them, and the bot clips anything over them as a
// last line of defence (Discord refuses the whole message otherwise).
const (
	MaxContent              = 2000 // message content
	MaxEmbeds               = 10   // embeds per message
	MaxEmbedTitle           = 256
	MaxEmbedDescription     = 4096
	MaxEmbedFields          = 25
	MaxEmbedFieldName       = 256
	MaxEmbedFieldValue      = 1024
	MaxEmbedFooter          = 2048
	MaxEmbedAuthor          = 256
	MaxEmbedTotal           = 6000 // titles, descriptions, fields, footers and authors of all embeds
	MaxActionRows           = 5
	MaxButtonsPerRow        = 5
	MaxButtonLabel          = 80
	MaxCustomID             = 100
	MaxModalTitle           = 45
	MaxModalRows            = 5
	MaxTextInputLabel       = 45
	MaxTextInputPlaceholder = 100
	MaxTextInputLength      = 4000 // a text input's value, min_length and max_length
	MaxFiles                = 10   // attachments per message
	MaxChoices              = 25   // choices of an option, or of an autocomplete answer
	MaxChoiceName           = 100  // a choice's name, and a string choice's value
	MaxThreadName           = 100  // a thread's name

	// Components V2 (Response.Blocks).
	MaxComponentsV2     = 40   // components of a message, nested ones counted (a container, its blocks, a row and its buttons, a section, its texts and accessory)
	MaxTextV2           = 4000 // characters of all its text: texts, button labels, alt text
	MaxSectionTexts     = 3
	MaxGalleryItems     = 10
	MaxContainerBlocks  = 10
	MaxMediaDescription = 1024 // a picture's alt text
)

// Clip shortens s to at most n characters as Discord counts them (runes),
// marking the cut with "…"; it never splits a rune.
func Clip(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
