package commands

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"sudokubot/store"
	"sudokubot/sudoku"
)

// /profile [timezone] [hide_name]: a player's own page. With no option it
// shows their rating with its history (skill.go), streak, personal bests
// and settings; timezone: sets the zone whose date is the player's "today"
// for the dailies (today.go); hide_name: hides their name on the global
// boards (boards.go).
const optTimezone = "timezone"

// addProfile registers /profile when the store keeps profiles.
func (p *player) addProfile() {
	if p.profiles == nil {
		return
	}
	p.s.addCommand(CommandSpec{
		Type:        ChatInput,
		Name:        "profile",
		Description: "Your rating, streak and personal bests; your time zone and name on global boards",
		Options: []OptionSpec{
			{Type: OptString, Name: optTimezone, Description: "Your time zone, as Europe/Paris or America/New_York (UTC if unset)", Autocomplete: true},
			{Type: OptBool, Name: optHideName, Description: "Show you as \"anonymous player\" on global boards (your servers' boards still name you)"},
		},
	}, p.profile, func(ctx context.Context, req Request) Plan { return Plan{Ephemeral: true} })
	p.s.addCompleter("profile", p.completeZone)
}

// localeZones are the zones offered before anything is typed, guessed
// from the user's Discord language (then from its language alone).
var localeZones = map[string][]string{
	"en-US":  {"America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles", "America/Anchorage", "Pacific/Honolulu"},
	"en-GB":  {"Europe/London"},
	"es-419": {"America/Mexico_City", "America/Bogota", "America/Argentina/Buenos_Aires", "America/Lima", "America/Santiago"},
	"es-ES":  {"Europe/Madrid"},
	"pt-BR":  {"America/Sao_Paulo", "America/Manaus"},
	"zh-CN":  {"Asia/Shanghai"},
	"zh-TW":  {"Asia/Taipei"},
	"sv-SE":  {"Europe/Stockholm"},
	"fr":     {"Europe/Paris"},
	"de":     {"Europe/Berlin"},
	"it":     {"Europe/Rome"},
	"nl":     {"Europe/Amsterdam"},
	"pl":     {"Europe/Warsaw"},
	"ru":     {"Europe/Moscow"},
	"uk":     {"Europe/Kyiv"},
	"tr":     {"Europe/Istanbul"},
	"ja":     {"Asia/Tokyo"},
	"ko":     {"Asia/Seoul"},
	"hi":     {"Asia/Kolkata"},
	"th":     {"Asia/Bangkok"},
	"vi":     {"Asia/Ho_Chi_Minh"},
	"id":     {"Asia/Jakarta"},
}

// completeZone offers zones for /profile timezone: as the user types: the
// guesses from their locale first when nothing is typed; else the zones
// whose city starts with the text, then those with a part starting with
// it, then those holding it anywhere. Each choice shows the zone's time
// now, so the right one is easy to tell.
func (p *player) completeZone(ctx context.Context, req Request) Response {
	typed := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(req.Options[optTimezone]), " ", "_"))
	var picks []string
	if typed == "" {
		picks = localeZones[req.Locale]
		if lang, _, ok := strings.Cut(req.Locale, "-"); ok && picks == nil {
			picks = localeZones[lang]
		}
		picks = append(slices.Clone(picks), "UTC")
	} else {
		var first, second, third []string
		lower := zoneLower()
		for i, z := range zoneList() {
			l := lower[i]
			switch {
			case strings.HasPrefix(l[strings.LastIndexByte(l, '/')+1:], typed) || l == typed:
				first = append(first, z)
			case strings.HasPrefix(l, typed) || strings.Contains(l, "/"+typed) || strings.Contains(l, "_"+typed):
				second = append(second, z)
			case strings.Contains(l, typed):
				third = append(third, z)
			}
		}
		picks = append(append(first, second...), third...)
	}
	var r Response
	r.Choices = []Choice{} // an empty list, not none: "no match"
	for _, z := range picks {
		if len(r.Choices) == MaxChoices {
			break
		}
		loc, ok := loadZone(z)
		if !ok || len(z) > MaxChoiceName {
			continue
		}
		now := req.Now.In(loc)
		name := fmt.Sprintf("%s (%s, UTC%s)", strings.ReplaceAll(z, "_", " "), now.Format("Mon 15:04"), now.Format("-07:00"))
		r.Choices = append(r.Choices, Choice{Name: Clip(name, MaxChoiceName), Value: z})
	}
	return r
}

// profile shows req's user's page, or sets what its options give.
func (p *player) profile(ctx context.Context, req Request) Response {
	old, prof, err := p.today(ctx, req.UserID, req.Now)
	if err != nil {
		return storeError(err)
	}
	name := strings.TrimSpace(req.Options[optTimezone])
	_, hide := req.Options[optHideName]
	if hide && p.boards != nil {
		on := boolOption(req.Options, optHideName)
		if err := p.boards.SetHideName(ctx, req.UserID, on, req.Now); err != nil {
			return storeError(err)
		}
		var msg string
		switch {
		case on && prof.HideName:
			msg = "You already show as \"" + anonymous + "\" on the global boards. `/profile hide_name:false` shows your name."
		case on:
			msg = "On the global boards you now show as \"" + anonymous + "\"; your servers' own boards still name you. `/profile hide_name:false` shows it again."
		case prof.HideName:
			msg = "Your name shows on the global boards again."
		default:
			msg = "Your name already shows on the global boards. `/profile hide_name:true` hides it there."
		}
		if name == "" {
			return ephemeral(msg)
		}
		r := p.setZone(ctx, req, old, prof, name)
		r.Content = msg + "\n" + r.Content
		return r
	}
	if name == "" {
		return p.profileCard(ctx, req, old, prof)
	}
	return p.setZone(ctx, req, old, prof, name)
}

// zoneSentence says a player's zone and today.
func zoneSentence(zone string, today time.Time) string {
	if zone == "" {
		return fmt.Sprintf("You have no time zone set, so your dailies follow UTC: your today is %s. "+
			"Set yours with `/profile timezone:Europe/Paris` (any IANA zone name).", dayPhrase(today))
	}
	return fmt.Sprintf("Your time zone is %s: your today is %s.", zone, dayPhrase(today))
}

// profileCard is /profile with no option: the player's rating and its
// last games, their daily streak, personal bests and settings.
func (p *player) profileCard(ctx context.Context, req Request, today time.Time, prof store.Profile) Response {
	e := Embed{Title: "Your profile", Color: colorNeutral, Description: zoneSentence(prof.TimeZone, today)}
	if p.skills != nil {
		fields, err := p.ratingFields(ctx, req.UserID)
		if err != nil {
			return storeError(err)
		}
		e.Fields = append(e.Fields, fields...)
	}
	st, err := p.dailies.Stats(ctx, req.UserID, today)
	if err != nil {
		return storeError(err)
	}
	streak := "No daily solved yet: `/daily play` starts today's."
	if st.Solved > 0 {
		streak = fmt.Sprintf("Current **%d** · best **%d** · freezes %d of %d held · %s solved (`/daily stats` for more)",
			st.Current, st.Best, st.Freezes, maxFreezes, Plural(st.Solved, "daily", "dailies"))
	}
	e.Fields = append(e.Fields, EmbedField{Name: "Daily streak", Value: streak})
	if p.skills != nil {
		bests, err := p.skills.PersonalBests(ctx, req.UserID)
		if err != nil {
			return storeError(err)
		}
		e.Fields = append(e.Fields, bestsField(bests))
	}
	if p.boards != nil {
		v := "Your name shows on the global boards. `/profile hide_name:true` shows you as \"" + anonymous + "\" there."
		if prof.HideName {
			v = "You show as \"" + anonymous + "\" on the global boards. `/profile hide_name:false` shows your name."
		}
		e.Fields = append(e.Fields, EmbedField{Name: "Global boards", Value: v})
	}
	e.Footer = "Rated games: dailies and /play games, solved or given up (Glicko-2, as lichess rates puzzles: you against the puzzle, scored by time, hints and checks)."
	return Response{Embeds: []Embed{e}, Ephemeral: true}
}

// setZone sets req's user's time zone to the one name names.
func (p *player) setZone(ctx context.Context, req Request, old time.Time, prof store.Profile, name string) Response {
	zone, ok := canonicalZone(name)
	if !ok {
		return ephemeral(fmt.Sprintf("I don't know the time zone %q. Use an IANA name such as Europe/Paris, America/New_York, Asia/Kolkata or UTC (a city alone works when one zone has it: Tokyo).", clip(name, 100)))
	}
	if zone == prof.TimeZone {
		return ephemeral(fmt.Sprintf("Your time zone is already %s: your today is %s.", zone, dayPhrase(old)))
	}
	if err := p.profiles.SetTimeZone(ctx, req.UserID, zone, old, req.Now); err != nil {
		return storeError(err)
	}
	loc, _ := loadZone(zone)
	local := req.Now.In(loc)
	msg := fmt.Sprintf("Your time zone is now %s (it is %s there).", zone, local.Format("15:04 on Monday 2 January"))
	if there := localDay(req.Now, zone); there.Before(old) {
		msg += fmt.Sprintf(" Your today stays %s until that date comes there: a change of zone can't take you back to a day you have already had.", dayPhrase(old))
	} else {
		msg += fmt.Sprintf(" Your today is %s.", dayPhrase(there))
		if there.After(old.AddDate(0, 0, 1)) {
			msg += fmt.Sprintf(" That jumps over %s, as a flight over the date line would: its daily is missed.", old.AddDate(0, 0, 1).Format("2 January"))
		}
	}
	return ephemeral(msg)
}

// dayPhrase is "Saturday 14 March (daily #73)".
func dayPhrase(d time.Time) string {
	return fmt.Sprintf("%s (daily #%d)", d.Format("Monday 2 January"), sudoku.DailyNumber(d))
}

// canonicalZone finds the zone a player named: an IANA name in any case
// ("europe/paris"), with spaces for underscores ("America/New York"), or a
// city alone when one zone ends with it ("Tokyo"). Only names in the zone
// list or loadable by the time package are taken.
func canonicalZone(name string) (string, bool) {
	want := strings.ReplaceAll(strings.TrimSpace(name), " ", "_")
	var city []string
	for _, z := range zoneList() {
		if strings.EqualFold(z, want) {
			return z, true
		}
		if i := strings.LastIndexByte(z, '/'); i >= 0 && strings.EqualFold(z[i+1:], want) {
			city = append(city, z)
		}
	}
	if len(city) == 1 {
		return city[0], true
	}
	if _, ok := loadZone(want); ok && strings.Contains(want, "/") {
		return want, true // a valid name outside the list (Etc/GMT+12, old links)
	}
	return "", false
}
