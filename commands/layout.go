package commands

import (
	"fmt"
	"strings"
)

// LayoutLines renders a Components V2 layout (Response.Blocks) as plain
// lines, for the console and the golden file of replies: a container's
// blocks under a bar ("┃ ", with its accent colour on its first line), a
// section's button or thumbnail after its texts, a separator as a rule,
// pictures by name.
func LayoutLines(blocks []Block) []string {
	var out []string
	for _, b := range blocks {
		out = append(out, blockLines(b)...)
	}
	return out
}

func blockLines(b Block) []string {
	switch b := b.(type) {
	case TextBlock:
		return strings.Split(b.Text, "\n")
	case *TextBlock:
		return blockLines(*b)
	case Section:
		lines := []string{}
		for _, t := range b.Texts {
			lines = append(lines, strings.Split(t, "\n")...)
		}
		switch {
		case b.Button != nil:
			lines = append(lines, "  ["+b.Button.Label+"]")
		case b.Thumbnail != nil:
			lines = append(lines, "  "+mediaLine(*b.Thumbnail))
		}
		return lines
	case *Section:
		return blockLines(*b)
	case Separator:
		if b.Invisible {
			return []string{""}
		}
		return []string{"────────"}
	case *Separator:
		return blockLines(*b)
	case Gallery:
		var lines []string
		for _, m := range b.Items {
			lines = append(lines, mediaLine(m))
		}
		return lines
	case *Gallery:
		return blockLines(*b)
	case ActionRow:
		var labels []string
		for _, btn := range b.Buttons {
			labels = append(labels, "["+btn.Label+"]")
		}
		return []string{strings.Join(labels, " ")}
	case *ActionRow:
		return blockLines(*b)
	case Container:
		head := "┃"
		if b.Accent != 0 {
			head = fmt.Sprintf("┃ (#%06x)", b.Accent)
		}
		lines := []string{head}
		for _, l := range LayoutLines(b.Blocks) {
			lines = append(lines, strings.TrimRight("┃ "+l, " "))
		}
		return lines
	case *Container:
		return blockLines(*b)
	}
	return nil
}

// mediaLine names a picture and its alt text.
func mediaLine(m Media) string {
	s := "[image " + strings.TrimPrefix(m.URL, "attachment://") + "]"
	if m.Description != "" {
		s += " " + m.Description
	}
	return s
}

// LayoutButtons lists the buttons of a layout in reading order: sections'
// and rows', containers' included.
func LayoutButtons(blocks []Block) []Button {
	var out []Button
	for _, b := range blocks {
		switch b := b.(type) {
		case Section:
			if b.Button != nil {
				out = append(out, *b.Button)
			}
		case *Section:
			if b.Button != nil {
				out = append(out, *b.Button)
			}
		case ActionRow:
			out = append(out, b.Buttons...)
		case *ActionRow:
			out = append(out, b.Buttons...)
		case Container:
			out = append(out, LayoutButtons(b.Blocks)...)
		case *Container:
			out = append(out, LayoutButtons(b.Blocks)...)
		}
	}
	return out
}
