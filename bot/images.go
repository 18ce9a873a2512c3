package bot

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"path"
	"strings"

	"github.com/bwmarrin/discordgo"

	"sudokubot/commands"
	"sudokubot/vision"
)

// isImage reports whether an attachment is a picture the reader takes: by
// content type, or by extension when Discord sent none.
func isImage(a *discordgo.MessageAttachment) bool {
	ct := strings.ToLower(a.ContentType)
	switch ct {
	case "image/png", "image/jpeg", "image/webp":
		return true
	case "":
		switch strings.ToLower(path.Ext(a.Filename)) {
		case ".png", ".jpg", ".jpeg", ".webp":
			return true
		}
	}
	return false
}

// imageAttachments picks the attachments that may hold a picture of a grid.
func imageAttachments(all []*discordgo.MessageAttachment) []*discordgo.MessageAttachment {
	var out []*discordgo.MessageAttachment
	for _, a := range all {
		if a != nil && a.URL != "" && isImage(a) {
			out = append(out, a)
		}
	}
	return out
}

// readImages downloads the first picture among atts through the session's
// client. Its size and its dimensions are checked before anything is
// decoded: first from Discord's attachment data, then from the file's own
// header, so a small file that claims a huge image never reaches the
// reader. Its errors are worded for the user.
func (b *Bot) readImages(ctx context.Context, s *discordgo.Session, atts []*discordgo.MessageAttachment) ([][]byte, error) {
	for _, a := range atts {
		if !isImage(a) {
			continue
		}
		if a.Size > vision.MaxBytes {
			return nil, replyError(commands.FileTooBigNotice(a.Filename, true, int64(a.Size), vision.MaxBytes))
		}
		if int64(a.Width)*int64(a.Height) > vision.MaxPixels {
			return nil, replyError(commands.PictureTooLargeNotice(a.Filename, a.Width, a.Height, vision.MaxPixels))
		}
		u, err := url.Parse(a.URL)
		if err != nil || !b.allowedAttachmentHost(u) {
			b.logf("attachment %s: refused URL %q", a.ID, a.URL)
			return nil, replyError(commands.FileUnreadableNotice(a.Filename, true, nil))
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		if err != nil {
			return nil, replyError(commands.FileUnreadableNotice(a.Filename, true, nil))
		}
		resp, err := s.Client.Do(req)
		if err != nil {
			b.logf("attachment %s: %v", a.ID, err)
			return nil, replyError(commands.FileDownloadNotice(a.Filename, true))
		}
		data, err := io.ReadAll(io.LimitReader(resp.Body, vision.MaxBytes+1))
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			b.logf("attachment %s: status %d: %v", a.ID, resp.StatusCode, err)
			return nil, replyError(commands.FileDownloadNotice(a.Filename, true))
		}
		if _, _, _, err := vision.CheckConfig(data); err != nil {
			return nil, replyError(commands.FileUnreadableNotice(a.Filename, true, err))
		}
		return [][]byte{data}, nil // one picture is read; the first is the one
	}
	return nil, nil
}
