package commands

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"sudokubot/sudoku"
)

// /profile [timezone]: a player's own settings. With no option it shows
// them; timezone: sets the zone whose date is the player's "today" for the
// dailies (today.go).
const optTimezone = "timezone"

// addProfile registers /profile when the store keeps profiles.
func (p *player) addProfile() {
	if p.profiles == nil {
		return
	}
	p.s.addCommand(CommandSpec{
		Type:        ChatInput,
		Name:        "profile",
		Description: "Your settings: the time zone whose date is your today for the dailies",
		Options: []OptionSpec{
			{Type: OptString, Name: optTimezone, Description: "Your time zone, as Europe/Paris or America/New_York (UTC if unset)", Autocomplete: true},
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

// profile shows or sets req's user's time zone.
func (p *player) profile(ctx context.Context, req Request) Response {
	old, prof, err := p.today(ctx, req.UserID, req.Now)
	if err != nil {
		return storeError(err)
	}
	name := strings.TrimSpace(req.Options[optTimezone])
	if name == "" {
		zone := prof.TimeZone
		if zone == "" {
			return ephemeral(fmt.Sprintf("You have no time zone set, so your dailies follow UTC: your today is %s. "+
				"Set yours with `/profile timezone:Europe/Paris` (any IANA zone name).", dayPhrase(old)))
		}
		return ephemeral(fmt.Sprintf("Your time zone is %s: your today is %s.", zone, dayPhrase(old)))
	}
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
