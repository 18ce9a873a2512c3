package bot

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// FuzzInteractionRequest feeds arbitrary INTERACTION_CREATE payloads
// through discordgo's decoding (which leaves fields nil or half-filled on
// errors, as over the gateway) and the bot's conversion: no panic, and a
// request that converts names its user.
func FuzzInteractionRequest(f *testing.F) {
	for _, seed := range []string{
		`{"id":"1","token":"t","type":2,"user":{"id":"11"},"data":{"name":"solve","type":1,"options":[{"name":"puzzle","type":3,"value":"1.3"},{"name":"private","type":5,"value":true}]}}`,
		`{"id":"1","token":"t","type":2,"member":{"user":{"id":"11"},"permissions":"8"},"data":{"name":"daily","type":1,"options":[{"name":"play","type":1,"options":[{"name":"level","type":3,"value":"hard"}]}]}}`,
		`{"id":"1","token":"t","type":2,"user":{"id":"11"},"data":{"name":"Solve Sudoku","type":3,"target_id":"9","resolved":{"messages":{"9":{"id":"9","content":"x","attachments":[{"id":"a","filename":"g.txt","url":"https://cdn.discordapp.com/a/g.txt"},null]}}}}}`,
		`{"id":"1","token":"t","type":3,"user":{"id":"11"},"data":{"custom_id":"hint:1","component_type":2},"message":{"id":"2","content":"c","referenced_message":{"id":"3","content":"grid"}}}`,
		`{"id":"1","token":"t","type":5,"user":{"id":"11"},"data":{"custom_id":"m","components":[{"type":1,"components":[{"type":4,"custom_id":"p","value":"v"}]}]}}`,
		`{"id":"1","token":"t","type":2,"user":{"id":"11"},"data":{"name":"solve","options":[null,{"name":"n","type":4,"value":{"a":1}}]}}`,
		`{"id":"1","token":"t","type":5,"user":{"id":"11"},"data":{"custom_id":"m","components":[{"type":1,"components":null}]}}`,
		`{"type":2,"data":"oops"}`, `null`, `{}`, `[]`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var ic discordgo.InteractionCreate
		_ = json.Unmarshal(data, &ic) // errors leave a partial value, as in discordgo's dispatch
		if ic.Interaction == nil {
			return
		}
		req, _, err := interactionRequest(ic.Interaction, time.Unix(0, 0))
		if err == nil && req.UserID == "" {
			t.Errorf("request without a user from %s", data)
		}
	})
}

// FuzzMessageText checks the mention helpers on arbitrary messages.
func FuzzMessageText(f *testing.F) {
	f.Add([]byte(`{"id":"1","content":"<@100> 12.4","mentions":[{"id":"100"},null],"referenced_message":{"author":null}}`), "100")
	f.Add([]byte(`{"content":"<@!100><@100>","referenced_message":{"author":{"id":"100"}}}`), "100")
	f.Fuzz(func(t *testing.T, data []byte, me string) {
		var m discordgo.Message
		_ = json.Unmarshal(data, &m)
		_ = mentions(&m, me)
		_ = stripMention(m.Content, me)
		_ = textAttachments(m.Attachments)
	})
}
