// Package commands is the product's behaviour: slash-command, message-command
// and component definitions, and the turning of a request (who, where, what)
// into a reply (text, embeds, files, buttons, modal). It knows nothing of
// discordgo: the bot package adapts Discord to these types, and the console
// and the tests drive them directly.
package commands

import (
	"context"
	"errors"
	"time"
)

// Kind says what the user did.
type Kind int

// The kinds of request.
const (
	// SlashCommand: a chat-input command such as /solve.
	SlashCommand Kind = iota
	// MessageCommand: an Apps-menu command on a message ("Solve Sudoku").
	MessageCommand
	// Component: a button (or select) on one of the bot's messages.
	Component
	// ModalSubmit: a modal the bot opened was submitted.
	ModalSubmit
	// Mention: a message that mentions the bot, or one posted in a channel
	// the server asked the bot to watch.
	Mention
	// Autocomplete: the user is typing an option marked Autocomplete;
	// Request.Focused names it and Options hold what is typed so far. The
	// answer is Response.Choices, sent at once (Discord allows no deferral).
	Autocomplete
)

// Request is everything a command needs to know about what a user did.
type Request struct {
	Kind Kind
	// ID identifies the interaction or message, for logs.
	ID string

	UserID, UserName string
	GuildID          string // empty in DMs
	ChannelID        string
	// Permissions are the member's permissions in the channel (Discord's bit
	// set); 0 when unknown.
	Permissions int64

	// Command is the command's name ("solve", "Solve Sudoku"), for
	// SlashCommand and MessageCommand.
	Command string
	// Subcommand is the chosen sub-command ("play" of /daily), or "".
	Subcommand string
	// Options holds the options the user gave, by name, as text
	// ("true" for booleans, the id for channels and users).
	Options map[string]string
	// Focused is the option being typed, for Autocomplete.
	Focused string
	// Locale is the user's Discord language ("en-US", "fr"), "" if unknown.
	Locale string
	// ChannelGuilds are the servers of the channels named in Options, by
	// channel id, from Discord's resolved data: "" when Discord gave a
	// channel without its server. A channel id missing here was not
	// resolved by Discord.
	ChannelGuilds map[string]string

	// CustomID is the custom id of the clicked component or submitted modal.
	CustomID string
	// MessageID is the message the clicked component is on (for a modal,
	// the message of the button that opened it), or "".
	MessageID string
	// Values are the chosen values of a select menu.
	Values []string
	// Fields are a submitted modal's text inputs, by custom id.
	Fields map[string]string

	// Text is the message text: the target message of a MessageCommand (with
	// the text of a .txt attachment appended), or the message of a Mention
	// (with the referenced message's text when it is a reply).
	Text string
	// Images are pictures attached to the message (PNG, JPEG or WebP
	// bytes, each at most vision.MaxBytes), read for a grid when Text holds
	// none.
	Images [][]byte
	// HasImage is set when the message carries a picture the bot has not
	// downloaded yet: a message in a watched channel is planned on it
	// before anything is fetched.
	HasImage bool

	// Now is when the request arrived.
	Now time.Time

	// Mentioned is set on a Mention request when the message mentions the
	// bot; clear when the bot forwards a message only because it was posted
	// in a watched channel (Service.Watched). A message from a channel that
	// is not watched is taken as a mention either way.
	Mentioned bool
}

// Response is the bot's answer.
type Response struct {
	// Modal, when set, is opened instead of a message reply. Only the first
	// answer to a slash command, message command or component may be a modal.
	Modal *Modal

	Content    string
	Embeds     []Embed
	Files      []File
	Components []ActionRow
	// Blocks, when set, lay the message out in Discord's Components V2
	// (the message flag IS_COMPONENTS_V2): containers with an accent
	// colour, text, sections, separators and galleries, with Components
	// (rows of buttons) below them. Content and Embeds are then not sent:
	// Discord refuses them beside the flag. Files show only where a
	// gallery names them (attachment://name). A message sent with Blocks
	// keeps them: its edits must have Blocks too. Within Discord's limits
	// (MaxComponentsV2 components counting nested ones, MaxTextV2
	// characters of text in all); the bot clips what goes over.
	Blocks []Block
	// Ephemeral replies are seen only by the user who asked.
	Ephemeral bool
	// failure is the error behind a reply that can only apologise (the
	// database failed): Service.Handle logs it, once.
	failure error
	// Update edits the message the component is on instead of posting a new
	// one (components and modals submitted from a component only).
	Update bool

	// FollowUps are more messages sent after this one (for example a public
	// announcement after an ephemeral reply).
	FollowUps []Response

	// Choices answer an Autocomplete request: at most MaxChoices, names
	// and values of 1 to MaxChoiceName characters. Nothing else is sent.
	Choices []Choice

	// LaunchActivity answers by opening the app's Activity (the board)
	// in the user's client; nothing else is sent. Like a modal, it can
	// only be the first answer to a slash command, message command or
	// component (never deferred: its Plan is the zero Plan).
	LaunchActivity bool
}

// Embed is a rich block of text. Image may be "attachment://name.png".
type Embed struct {
	Title       string
	Description string
	Color       int
	Fields      []EmbedField
	Footer      string
	Image       string
}

// EmbedField is one name/value pair of an embed.
type EmbedField struct {
	Name, Value string
	Inline      bool
}

// File is an attachment.
type File struct {
	Name        string
	ContentType string
	Data        []byte
}

// ActionRow is one row of up to five buttons. It is also a Block.
type ActionRow struct {
	Buttons []Button
}

// Block is one piece of a Components V2 layout (Response.Blocks): a
// Container, TextBlock, Section, Separator, Gallery or ActionRow.
type Block interface{ isBlock() }

// Container groups blocks in a box with a colour bar on its left.
type Container struct {
	// Accent is the bar's RGB colour (0xRRGGBB); 0 shows none.
	Accent  int
	Spoiler bool
	// Blocks are the container's content, at most MaxContainerBlocks; a
	// Container inside a Container is flattened into it.
	Blocks []Block
}

// TextBlock is markdown text.
type TextBlock struct {
	Text string
}

// Section is one to MaxSectionTexts texts beside a button or a
// thumbnail; Discord needs one of the two (a section with neither is sent
// as plain text blocks).
type Section struct {
	Texts     []string
	Button    *Button
	Thumbnail *Media
}

// Separator is space between blocks, with a dividing line unless
// Invisible.
type Separator struct {
	Invisible bool
	Large     bool // large spacing rather than small
}

// Gallery shows 1 to MaxGalleryItems pictures.
type Gallery struct {
	Items []Media
}

// Media is one picture: URL is https://… or attachment://name, name
// being one of the Response's Files.
type Media struct {
	URL string
	// Description is the picture's alt text.
	Description string
	Spoiler     bool
}

func (ActionRow) isBlock() {}
func (Container) isBlock() {}
func (TextBlock) isBlock() {}
func (Section) isBlock()   {}
func (Separator) isBlock() {}
func (Gallery) isBlock()   {}

// ButtonStyle is a button's colour.
type ButtonStyle int

// Button styles, as Discord numbers them.
const (
	Primary   ButtonStyle = 1
	Secondary ButtonStyle = 2
	Success   ButtonStyle = 3
	Danger    ButtonStyle = 4
)

// Button is a clickable button; CustomID is at most 100 characters.
type Button struct {
	Label    string
	CustomID string
	Style    ButtonStyle
	Disabled bool
}

// Modal is a form with up to five text inputs.
type Modal struct {
	CustomID string
	Title    string
	Inputs   []TextInput
}

// TextInput is one field of a modal.
type TextInput struct {
	CustomID    string
	Label       string
	Paragraph   bool // multi-line
	Placeholder string
	Value       string
	Required    bool
	MaxLength   int
}

// OptionType is the type of a command option, as Discord numbers them.
type OptionType int

// Option types.
const (
	OptSubcommand OptionType = 1
	OptString     OptionType = 3
	OptInteger    OptionType = 4
	OptBool       OptionType = 5
	OptUser       OptionType = 6
	OptChannel    OptionType = 7
	// OptAttachment is a file; Options holds its id, and the bot puts a
	// picture's bytes in Request.Images.
	OptAttachment OptionType = 11
)

// CommandType says where a command appears, as Discord numbers them.
type CommandType int

// Command types.
const (
	ChatInput     CommandType = 1 // a slash command
	MessageAction CommandType = 3 // in a message's Apps menu
	// PrimaryEntryPoint opens the app's Activity from the App Launcher:
	// Discord launches it itself (handler DISCORD_LAUNCH_ACTIVITY), no
	// interaction reaches the bot. Global only, one per app.
	PrimaryEntryPoint CommandType = 4
)

// CommandSpec defines a command for registration with Discord.
type CommandSpec struct {
	Type        CommandType
	Name        string
	Description string // slash commands only
	Options     []OptionSpec
	// DefaultMemberPermissions, when not nil, limits who sees the command by
	// default (Discord's permission bits).
	DefaultMemberPermissions *int64
}

// OptionSpec defines one option (or sub-command) of a command.
type OptionSpec struct {
	Type        OptionType
	Name        string
	Description string
	Required    bool
	Choices     []Choice
	Options     []OptionSpec // a sub-command's own options
	// Autocomplete: Discord asks the command for choices as the user
	// types (Kind Autocomplete); never with Choices.
	Autocomplete bool
}

// Choice is one allowed value of a string option.
type Choice struct {
	Name, Value string
}

// Plan says how the bot should treat a request before the work is done (see
// Service.Plan). The zero Plan means: answer at once, publicly.
type Plan struct {
	// Ignore: send nothing and count nothing against the user's limits (a
	// message that neither mentions the bot nor is a grid in a watched
	// channel).
	Ignore bool
	// Heavy: engine work; run it in the worker pool under the per-user
	// deadline, deferring the interaction when it may take longer than
	// Discord's 3 s.
	Heavy bool
	// Ephemeral: when deferring, defer ephemerally (flag 64). The final
	// Response.Ephemeral may still differ (an error is always ephemeral); see
	// the bot's handling of a public deferral answered ephemerally.
	Ephemeral bool
	// Update: when deferring a component, defer as an update of the
	// component's message (callback type 6) rather than a new reply.
	Update bool
	// Cheap: heavy work that takes milliseconds (a 9x9 solve, check or
	// hint). The bot runs it in a fast lane that expensive work (big grids,
	// generation), the default, cannot hold up.
	Cheap bool
}

// Channels sends messages that are not answers to an interaction: race lobbies'
// scoreboards, results, threads. The bot implements it; the console prints.
type Channels interface {
	// Post sends r to a channel (or thread) once, whatever retries it takes.
	Post(ctx context.Context, channelID string, r Response) (messageID string, err error)
	// Edit replaces a message's body. Edits of one message may be coalesced:
	// the last one wins, within the channel's rate limit.
	Edit(ctx context.Context, channelID, messageID string, r Response) error
	// StartThread makes a public thread from a message; ErrNoThreads when
	// the bot may not (the caller then stays in the channel).
	StartThread(ctx context.Context, channelID, messageID, name string) (threadID string, err error)
}

// ErrNoThreads is what Channels.StartThread returns when the bot may not
// make a thread there (no permission, a DM, a thread already).
var ErrNoThreads = errors.New("threads can't be made here")
