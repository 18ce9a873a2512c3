package bot

import (
	"context"
	"runtime/debug"
	"time"

	"github.com/bwmarrin/discordgo"

	"sudokubot/commands"
)

// waits are the bot's fixed waits; New sets the defaults below, and tests
// shorten them.
type waits struct {
	// grace is how long past a job's deadline the bot waits for the
	// handler's own "stopped" answer before sending its own.
	grace time.Duration
	// replyBackoff is the wait before the first retry of a failed REST
	// call of an answer; each retry doubles it, up to replyBackoffMax.
	replyBackoff, replyBackoffMax time.Duration
}

// The default waits.
const (
	deadlineGrace   = 500 * time.Millisecond
	replyBackoff    = 100 * time.Millisecond
	replyBackoffMax = 5 * time.Second
)

// outcome is what a job produced.
type outcome struct {
	resp        commands.Response
	hitDeadline bool
}

// onInteraction is discordgo's INTERACTION_CREATE handler. discordgo runs
// it on its own goroutine and does not recover panics, so this recovers
// everything below it.
func (b *Bot) onInteraction(s *discordgo.Session, ic *discordgo.InteractionCreate) {
	arrived := b.now()
	if ic == nil || ic.Interaction == nil || ic.ID == "" || ic.Token == "" {
		b.logf("interaction without id or token ignored")
		return
	}
	in := ic.Interaction
	if in.Type == discordgo.InteractionPing {
		return // never sent over the gateway
	}
	b.interact(&exchange{b: b, s: s, in: in, transport: "gateway"}, arrived)
}

// interact serves one interaction, from the gateway or the HTTP endpoint,
// recovering any panic below it and counting it in the metrics.
func (b *Bot) interact(x *exchange, arrived time.Time) {
	in := x.in
	if x.rc == nil {
		x.rc = newReplyClient(x.s, in, time.Now())
		x.rc.firstBackoff, x.rc.maxBackoff = b.waits.replyBackoff, b.waits.replyBackoffMax
	}
	if !b.begin() {
		x.outcome = "restarting"
		x.answer(notice(commands.RestartingNotice))
		b.metrics.interaction(x, arrived)
		return
	}
	defer b.end()
	defer b.metrics.interaction(x, arrived)
	defer func() {
		if r := recover(); r != nil {
			x.outcome = "error"
			b.logf("panic in interaction %s: %v\n%s", in.ID, r, debug.Stack())
			if !x.acked {
				x.answer(notice(commands.ErrorNotice(in.ID)))
			}
		}
	}()
	x.serve(arrived)
}

// notice is a short ephemeral answer from the bot itself.
func notice(text string) commands.Response {
	return commands.Response{Content: text, Ephemeral: true}
}

// exchange is one interaction being answered.
type exchange struct {
	b  *Bot
	s  *discordgo.Session
	in *discordgo.Interaction
	rc *replyClient

	kind      commands.Kind
	plan      commands.Plan
	acked     bool // the first callback went out (or was tried for good)
	deferType discordgo.InteractionResponseType
	// deferEphemeral: the deferral's placeholder is ephemeral.
	deferEphemeral bool

	// transport is "gateway" or "http"; reply, when set, sends the first
	// answer (the HTTP endpoint writes it as its response).
	transport string
	reply     func(*discordgo.InteractionResponse) error
	// firstAt is when the first answer went out; outcome is what became of
	// the request, for the metrics ("" = answered).
	firstAt time.Time
	outcome string
}

// respond sends the first answer to the interaction.
func (x *exchange) respond(ctx context.Context, r *discordgo.InteractionResponse) error {
	x.firstAt = x.b.now()
	if x.reply != nil {
		return x.reply(r)
	}
	return x.rc.respond(ctx, r)
}

func (x *exchange) serve(arrived time.Time) {
	b := x.b
	req, atts, err := interactionRequest(x.in, arrived)
	if err != nil {
		b.logf("interaction %s: %v", x.in.ID, err)
		x.answer(notice(commands.UnreadableRequestNotice))
		return
	}
	x.kind = req.Kind
	if req.Kind == commands.Autocomplete {
		x.complete(req, arrived)
		return
	}
	if len(atts) > 0 {
		// Attachments are read before the work starts; the time counts
		// against the defer window, so it is bounded by half of it.
		actx, cancel := context.WithTimeout(b.work, b.cfg.DeferAfter/2)
		text, err := b.readAttachments(actx, x.s, atts)
		if err == nil {
			req.Images, err = b.readImages(actx, x.s, atts)
		}
		cancel()
		if err != nil {
			x.answer(notice(err.Error()))
			return
		}
		req.Text = joinText(req.Text, text)
	}

	pctx, cancel := context.WithTimeout(b.work, b.cfg.DeferAfter/2)
	x.plan = b.plan(pctx, req)
	cancel()
	if msg, ok := b.admit(req.UserID, x.plan.Heavy, arrived); !ok {
		x.outcome = "limited"
		x.answer(notice(msg))
		return
	}
	result, started, place, ok := b.start(req, x.plan)
	if !ok {
		x.outcome = "busy"
		x.answer(notice(b.busyNotice()))
		return
	}
	if place > 0 && !(x.kind == commands.Component && x.plan.Update) {
		x.sayQueued(place)
	}

	deferTimer := time.NewTimer(b.cfg.DeferAfter - b.now().Sub(arrived))
	defer deferTimer.Stop()
	overrun := newRestartableTimer()
	defer overrun.stop()
	for {
		select {
		case o := <-result:
			if o.hitDeadline {
				x.outcome = "deadline"
			}
			x.answer(o.resp)
			return
		case <-started:
			overrun.reset(b.cfg.SolveTimeout + b.waits.grace)
		case <-overrun.c():
			// The handler ignored its deadline; the job keeps its worker
			// until it returns, but the user hears now.
			b.logf("interaction %s: handler still running %s past its deadline", x.in.ID, b.waits.grace)
			x.outcome = "deadline"
			x.answer(b.stoppedNotice())
			return
		case <-deferTimer.C:
			x.deferReply()
		case <-b.work.Done():
			// Shutting down and out of time: the job was cancelled; say so
			// now rather than wait for a handler that may not listen.
			x.answer(notice(commands.RestartingNotice))
			return
		}
	}
}

// stoppedNotice is the bot's own answer when a handler overran its deadline.
func (b *Bot) stoppedNotice() commands.Response {
	return commands.Response{Content: commands.StoppedNotice(b.cfg.SolveTimeout)}
}

// admit applies the per-user limits and returns the polite refusal when
// the request is over one.
func (b *Bot) admit(user string, heavy bool, now time.Time) (string, bool) {
	d, wait := b.limits.take(user, heavy, now, b.cfg.SolveTimeout)
	switch d {
	case rateLimited:
		return commands.RateLimitedNotice(wait), false
	case busyUser:
		return commands.StillWorkingNotice(wait), false
	case coolingOff:
		return commands.CoolingOffNotice(wait), false
	}
	return "", true
}

// queueWait estimates how long until the queue has room: one deadline per
// round of workers.
func (b *Bot) queueWait() time.Duration {
	rounds := b.slow.queued()/b.cfg.Workers + 1
	return time.Duration(rounds) * b.cfg.SolveTimeout
}

// busyNotice is the answer when the queue is full.
func (b *Bot) busyNotice() string {
	return commands.BusyNotice(b.queueWait())
}

// plan asks the handler how to treat req, recovering a panic (as a light
// request: the handler's own panic, if it repeats, is then answered by
// call).
func (b *Bot) plan(ctx context.Context, req commands.Request) (p commands.Plan) {
	defer func() {
		if r := recover(); r != nil {
			b.logf("panic planning %s: %v\n%s", req.ID, r, debug.Stack())
			p = commands.Plan{}
		}
	}()
	return b.h.Plan(ctx, req)
}

// call runs the handler, turning a panic into a logged, answered error.
func (b *Bot) call(ctx context.Context, req commands.Request) (resp commands.Response) {
	defer func() {
		if r := recover(); r != nil {
			b.logf("panic handling %s (user %s, command %q): %v\n%s", req.ID, req.UserID, req.Command+req.CustomID, r, debug.Stack())
			resp = notice(commands.ErrorNotice(req.ID))
		}
	}()
	return b.h.Handle(ctx, req)
}

// restCtx is the context of the REST calls made while answering: the
// reply client bounds each by the interaction's lifetime, and a shutdown
// cancels them when its time is up.
func (x *exchange) restCtx() (context.Context, context.CancelFunc) {
	return context.WithCancel(x.b.rest)
}

// deferReply acknowledges the interaction so Discord keeps its token
// alive, as the plan says: a silent acknowledgement (type 6) for a button
// whose answer updates its message, else "thinking…" (type 5), ephemeral
// when the answer will be.
func (x *exchange) deferReply() {
	if x.acked {
		return
	}
	r := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}
	if x.kind == commands.Component && x.plan.Update {
		r.Type = discordgo.InteractionResponseDeferredMessageUpdate
	} else if x.plan.Ephemeral {
		r.Data = &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}
		x.deferEphemeral = true
	}
	ctx, cancel := x.restCtx()
	defer cancel()
	if err := x.respond(ctx, r); err != nil {
		// Not acknowledged: the answer, when it comes, goes as a first
		// callback (which still works if Discord's 3 s have not passed).
		x.b.logf("interaction %s: defer: %v", x.in.ID, err)
		x.deferEphemeral = false
		return
	}
	x.acked = true
	x.deferType = r.Type
}

// sayQueued answers at once that the work waits in line; the answer
// replaces this message when it comes (as after a deferral).
func (x *exchange) sayQueued(place int) {
	ctx, cancel := x.restCtx()
	defer cancel()
	m := toMessage(commands.Response{Content: commands.QueuedNotice(place), Ephemeral: x.plan.Ephemeral})
	r := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: m.responseData()}
	if err := x.respond(ctx, r); err != nil {
		x.b.logf("interaction %s: queued notice: %v", x.in.ID, err)
		return
	}
	x.acked = true
	x.deferType = r.Type
	x.deferEphemeral = x.plan.Ephemeral
}

// answer sends resp: as the first callback when nothing went out yet,
// else as an edit of (or follow-up to) the deferred reply; then its
// follow-ups.
func (x *exchange) answer(resp commands.Response) {
	if resp.Modal == nil && !resp.LaunchActivity && resp.Content == "" && len(resp.Embeds) == 0 && len(resp.Files) == 0 && len(resp.Blocks) == 0 {
		// Discord refuses an empty message, and an interaction must be
		// answered: say so rather than leave "thinking…" forever.
		x.b.logf("interaction %s: the handler gave an empty answer", x.in.ID)
		resp.Content, resp.Ephemeral = commands.EmptyAnswerNotice, true
	}
	if x.acked {
		x.answerDeferred(resp)
	} else {
		x.answerNow(resp)
	}
	for _, f := range resp.FollowUps {
		x.followUp(f)
	}
}

func (x *exchange) answerNow(resp commands.Response) {
	ctx, cancel := x.restCtx()
	defer cancel()
	var r *discordgo.InteractionResponse
	switch {
	case resp.LaunchActivity && x.kind != commands.ModalSubmit:
		// Discord opens the Activity; the callback carries no data.
		r = &discordgo.InteractionResponse{Type: responseLaunchActivity}
	case resp.LaunchActivity:
		// A modal's submission cannot launch (Discord refuses it).
		r = &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: toMessage(notice(commands.LaunchTooLateNotice)).responseData()}
	case resp.Modal != nil && x.kind != commands.ModalSubmit:
		r = &discordgo.InteractionResponse{Type: discordgo.InteractionResponseModal, Data: toModal(resp.Modal)}
	case resp.Update && (x.kind == commands.Component || x.kind == commands.ModalSubmit):
		r = &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: toMessage(resp).responseData()}
	default:
		r = &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: toMessage(resp).responseData()}
	}
	x.acked = true
	if err := x.respond(ctx, r); err != nil {
		x.b.logf("interaction %s: respond (type %d): %v", x.in.ID, r.Type, err)
	}
}

func (x *exchange) answerDeferred(resp commands.Response) {
	ctx, cancel := x.restCtx()
	defer cancel()
	if resp.Modal != nil && resp.Content == "" && len(resp.Embeds) == 0 {
		// A modal can only be the first answer.
		resp = notice(commands.FormTooLateNotice)
	}
	if resp.LaunchActivity {
		// So can the Activity's launch.
		resp = notice(commands.LaunchTooLateNotice)
	}
	m := toMessage(resp)
	var err error
	switch {
	case x.deferType == discordgo.InteractionResponseDeferredMessageUpdate && !resp.Update:
		// A button deferred silently: its answer is a new message.
		err = x.rc.followUp(ctx, m.webhookParams())
	case (x.deferType == discordgo.InteractionResponseDeferredChannelMessageWithSource || x.deferType == discordgo.InteractionResponseChannelMessageWithSource) &&
		resp.Ephemeral != x.deferEphemeral:
		// The placeholder's visibility cannot change: a private answer to
		// a public "thinking…" (an error found during the work), or the
		// reverse, replaces it with a follow-up of the right kind.
		if err = x.rc.deleteOriginal(ctx); err != nil {
			x.b.logf("interaction %s: delete placeholder: %v", x.in.ID, err)
		}
		err = x.rc.followUp(ctx, m.webhookParams())
	default:
		err = x.rc.editOriginal(ctx, m.webhookEdit())
	}
	if err != nil {
		x.b.logf("interaction %s: deferred answer: %v", x.in.ID, err)
	}
}

func (x *exchange) followUp(resp commands.Response) {
	ctx, cancel := x.restCtx()
	defer cancel()
	if err := x.rc.followUp(ctx, toMessage(resp).webhookParams()); err != nil {
		x.b.logf("interaction %s: follow-up: %v", x.in.ID, err)
	}
}

// complete answers an autocomplete interaction: Discord shows the choices
// as the user types, takes no deferral and no message, and fires one per
// keystroke, so the answer is computed at once (the handlers' completers
// only match text), outside the work lanes and the per-user limits, with
// whatever is ready within the defer window; a failure sends no choices.
func (x *exchange) complete(req commands.Request, arrived time.Time) {
	ctx, cancel := context.WithTimeout(x.b.work, x.b.cfg.DeferAfter-x.b.now().Sub(arrived))
	defer cancel()
	r := x.b.h.Handle(ctx, req)
	choices := make([]*discordgo.ApplicationCommandOptionChoice, 0, len(r.Choices))
	for _, c := range r.Choices {
		if len(choices) == commands.MaxChoices || c.Name == "" || c.Value == "" {
			continue
		}
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{
			Name: clip(c.Name, commands.MaxChoiceName), Value: clip(c.Value, commands.MaxChoiceName)})
	}
	x.acked = true
	if err := x.respond(ctx, &discordgo.InteractionResponse{
		Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: choices},
	}); err != nil {
		x.outcome = "error"
		x.b.logf("interaction %s: autocomplete answer: %v", x.in.ID, err)
	}
}
