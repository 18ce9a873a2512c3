package bot

import (
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"sudokubot/commands"
)

// toLayout converts a Components V2 layout (commands.Response.Blocks, then
// its rows of buttons) to Discord's components, clipped to Discord's rules
// as a last line of defence, since Discord refuses the whole message for
// any one of them:
//
//   - at most commands.MaxComponentsV2 components, nested ones counted:
//     the rows of buttons are kept first (they are what a player acts
//     on), then blocks in order while they fit;
//   - at most commands.MaxTextV2 characters of text in all (texts, labels,
//     alt text): later texts are shortened, then left out;
//   - a section needs a button or a thumbnail (one without becomes plain
//     texts) and holds 1 to 3 texts; a gallery 1 to 10 pictures whose URL
//     is http(s) or one of the message's files; a container 1 to 10
//     blocks and no container (one inside is flattened); empty ones are
//     left out;
//   - custom ids are unique in the message: a repeated one is left out.
func toLayout(blocks []commands.Block, rows []commands.ActionRow, files []commands.File) []discordgo.MessageComponent {
	l := &layout{count: commands.MaxComponentsV2, text: commands.MaxTextV2, seen: map[string]bool{}, files: map[string]bool{}}
	for _, f := range files {
		l.files[f.Name] = true
	}
	// The rows first: their room is taken before any block's.
	var tail []discordgo.MessageComponent
	for i, r := range rows {
		if i == commands.MaxActionRows {
			break
		}
		if c, ok := l.row(r); ok {
			tail = append(tail, c)
		}
	}
	var out []discordgo.MessageComponent
	for _, b := range blocks {
		out = append(out, l.block(b, false)...)
	}
	return append(out, tail...)
}

// layout is what is left of a message's room as it is built.
type layout struct {
	count int // components
	text  int // characters
	seen  map[string]bool
	files map[string]bool
}

// take spends n components if that many are left.
func (l *layout) take(n int) bool {
	if n > l.count {
		return false
	}
	l.count -= n
	return true
}

// say spends the characters of s, shortened to what is left (and to max),
// and returns it; "" when nothing is left.
func (l *layout) say(s string, max int) string {
	s = clip(s, min(max, l.text))
	l.text -= utf8.RuneCountInString(s)
	return s
}

// block converts one block, or none when it does not fit (a flattened
// container gives several).
func (l *layout) block(b commands.Block, inContainer bool) []discordgo.MessageComponent {
	switch b := b.(type) {
	case commands.TextBlock:
		if c, ok := l.textBlock(b.Text); ok {
			return []discordgo.MessageComponent{c}
		}
	case *commands.TextBlock:
		if b != nil {
			return l.block(*b, inContainer)
		}
	case commands.Section:
		return l.section(b)
	case *commands.Section:
		if b != nil {
			return l.section(*b)
		}
	case commands.Separator:
		return l.separator(b)
	case *commands.Separator:
		if b != nil {
			return l.separator(*b)
		}
	case commands.Gallery:
		return l.gallery(b)
	case *commands.Gallery:
		if b != nil {
			return l.gallery(*b)
		}
	case commands.ActionRow:
		if c, ok := l.row(b); ok {
			return []discordgo.MessageComponent{c}
		}
	case *commands.ActionRow:
		if b != nil {
			return l.block(*b, inContainer)
		}
	case commands.Container:
		return l.container(b, inContainer)
	case *commands.Container:
		if b != nil {
			return l.container(*b, inContainer)
		}
	}
	return nil
}

func (l *layout) textBlock(s string) (discordgo.MessageComponent, bool) {
	if strings.TrimSpace(s) == "" || l.text == 0 || !l.take(1) {
		return nil, false
	}
	return discordgo.TextDisplay{Content: l.say(s, commands.MaxTextV2)}, true
}

func (l *layout) separator(s commands.Separator) []discordgo.MessageComponent {
	if !l.take(1) {
		return nil
	}
	divider := !s.Invisible
	spacing := discordgo.SeparatorSpacingSizeSmall
	if s.Large {
		spacing = discordgo.SeparatorSpacingSizeLarge
	}
	return []discordgo.MessageComponent{discordgo.Separator{Divider: &divider, Spacing: &spacing}}
}

// button converts a button unless its custom id is already in the
// message or its label finds no room.
func (l *layout) button(b commands.Button) (discordgo.Button, bool) {
	btn := toButton(b)
	if btn.CustomID == "" || l.seen[btn.CustomID] || utf8.RuneCountInString(btn.Label) > l.text {
		return btn, false
	}
	l.seen[btn.CustomID] = true
	l.text -= utf8.RuneCountInString(btn.Label)
	return btn, true
}

func (l *layout) row(r commands.ActionRow) (discordgo.MessageComponent, bool) {
	if l.count < 2 {
		return nil, false
	}
	l.count-- // the row
	ar := discordgo.ActionsRow{}
	for _, b := range r.Buttons {
		if len(ar.Components) == commands.MaxButtonsPerRow || l.count == 0 {
			break
		}
		if btn, ok := l.button(b); ok {
			l.count--
			ar.Components = append(ar.Components, btn)
		}
	}
	if len(ar.Components) == 0 {
		l.count++
		return nil, false
	}
	return ar, true
}

// media converts a picture whose URL Discord takes: http(s), or one of
// the message's files.
func (l *layout) media(m commands.Media) (discordgo.UnfurledMediaItem, *string, bool) {
	u := m.URL
	name, isFile := strings.CutPrefix(u, "attachment://")
	switch {
	case isFile && !l.files[name]:
		return discordgo.UnfurledMediaItem{}, nil, false
	case !isFile && !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://"):
		return discordgo.UnfurledMediaItem{}, nil, false
	}
	var desc *string
	if d := l.say(m.Description, commands.MaxMediaDescription); d != "" {
		desc = &d
	}
	return discordgo.UnfurledMediaItem{URL: u}, desc, true
}

func (l *layout) section(s commands.Section) []discordgo.MessageComponent {
	var accessory discordgo.MessageComponent
	if l.count >= 3 { // the section, its accessory, one text
		if s.Button != nil {
			if btn, ok := l.button(*s.Button); ok {
				accessory = btn
			}
		} else if s.Thumbnail != nil {
			if item, desc, ok := l.media(*s.Thumbnail); ok {
				accessory = discordgo.Thumbnail{Media: item, Description: desc, Spoiler: s.Thumbnail.Spoiler}
			}
		}
	}
	if accessory == nil {
		// Discord needs an accessory: the texts stand alone.
		var out []discordgo.MessageComponent
		for _, t := range s.Texts {
			if c, ok := l.textBlock(t); ok {
				out = append(out, c)
			}
		}
		return out
	}
	l.count -= 2 // the section and its accessory
	sec := discordgo.Section{Accessory: accessory}
	for _, t := range s.Texts {
		if len(sec.Components) == commands.MaxSectionTexts {
			break
		}
		if c, ok := l.textBlock(t); ok {
			sec.Components = append(sec.Components, c)
		}
	}
	if len(sec.Components) == 0 {
		l.count += 2
		return nil
	}
	return []discordgo.MessageComponent{sec}
}

func (l *layout) gallery(g commands.Gallery) []discordgo.MessageComponent {
	if !l.take(1) {
		return nil
	}
	mg := discordgo.MediaGallery{}
	for _, m := range g.Items {
		if len(mg.Items) == commands.MaxGalleryItems {
			break
		}
		if item, desc, ok := l.media(m); ok {
			mg.Items = append(mg.Items, discordgo.MediaGalleryItem{Media: item, Description: desc, Spoiler: m.Spoiler})
		}
	}
	if len(mg.Items) == 0 {
		l.count++
		return nil
	}
	return []discordgo.MessageComponent{mg}
}

func (l *layout) container(c commands.Container, inContainer bool) []discordgo.MessageComponent {
	if inContainer {
		// No container in a container: its blocks join the outer one.
		var out []discordgo.MessageComponent
		for _, b := range c.Blocks {
			out = append(out, l.block(b, true)...)
		}
		return out
	}
	if !l.take(1) {
		return nil
	}
	box := discordgo.Container{Spoiler: c.Spoiler}
	if c.Accent > 0 && c.Accent <= 0xFFFFFF {
		accent := c.Accent
		box.AccentColor = &accent
	}
	for _, b := range c.Blocks {
		if len(box.Components) == commands.MaxContainerBlocks {
			break
		}
		kids := l.block(b, true)
		box.Components = append(box.Components, kids[:min(len(kids), commands.MaxContainerBlocks-len(box.Components))]...)
	}
	if len(box.Components) == 0 {
		l.count++
		return nil
	}
	return []discordgo.MessageComponent{box}
}
