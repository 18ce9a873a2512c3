package bot

import (
	"context"
	"errors"
	"time"

	"sudokubot/commands"
)

// Scheduling. Heavy work runs in one of two lanes, so that a cheap request
// is never stuck behind expensive ones:
//
//   - the fast lane takes work the plan calls Cheap (a 9x9 solve, check or
//     hint: milliseconds). It has more workers than cores, so even while
//     the slow lane keeps every core busy, the Go scheduler gives the fast
//     lane most of the CPU, and its queue is long enough for every user
//     to have a job in it.
//   - the slow lane takes the rest (big grids, generation): Workers
//     goroutines and a bounded queue. Each user has at most one heavy job
//     in flight (the limiter), so its FIFO queue serves users in turn, and
//     a request that has to wait is told its place in line at once.
//
// A cheap job that overruns fastBudget (a misjudged plan, a crafted grid)
// is cancelled and moved to the slow lane, so the fast lane stays fast
// whatever it is given.

// fastBudget is how long a job may run in the fast lane.
const fastBudget = time.Second

// errDemoted is the cause of a fast-lane job's cancellation at its budget.
var errDemoted = errors.New("over the fast lane's budget")

// newLanes returns the fast and slow pools for cfg.
func newLanes(cfg Config) (fast, slow *pool) {
	return newPool(max(4, 4*cfg.Workers), 4*cfg.Queue), newPool(cfg.Workers, cfg.Queue)
}

// start runs req as its plan says: light work on a goroutine of its own,
// heavy work in its lane. The result channel receives exactly one outcome;
// started receives a value each time the work (re)starts, and the user's
// deadline counts from the last one (time in a queue is not held against
// the user). place is the job's place in the slow lane's line (0: not
// waiting). It reports false when the slow lane refused the job.
func (b *Bot) start(req commands.Request, plan commands.Plan) (result <-chan outcome, started <-chan struct{}, place int, ok bool) {
	res := make(chan outcome, 1)
	st := make(chan struct{}, 2)
	finish := func(resp commands.Response, hit bool) {
		if plan.Heavy {
			if b.limits.done(req.UserID, hit, b.now()) {
				b.logf("user %s cools down for %s after repeated deadline hits", req.UserID, b.cfg.Cooldown)
			}
		}
		res <- outcome{resp: resp, hitDeadline: hit}
	}
	slow := func() {
		st <- struct{}{}
		ctx, cancel := context.WithTimeout(b.work, b.cfg.SolveTimeout)
		defer cancel()
		resp := b.call(ctx, req)
		finish(resp, errors.Is(ctx.Err(), context.DeadlineExceeded))
	}
	if !plan.Heavy {
		go slow()
		return res, st, 0, true
	}
	if plan.Cheap && fastBudget < b.cfg.SolveTimeout {
		fast := func() {
			st <- struct{}{}
			ctx, cancel := context.WithTimeoutCause(b.work, fastBudget, errDemoted)
			resp := b.call(ctx, req)
			demoted := ctx.Err() != nil && context.Cause(ctx) == errDemoted
			cancel()
			if !demoted {
				finish(resp, false)
				return
			}
			b.logf("request %s: over the fast lane's %s, moved to the slow lane", req.ID, fastBudget)
			if _, ok := b.slow.submit(slow); !ok {
				finish(notice(b.busyNotice()), false)
			}
		}
		if _, ok := b.fast.submit(fast); ok {
			return res, st, 0, true
		}
		// The fast lane is full: the slow one may still have room.
	} else if plan.Cheap {
		if _, ok := b.fast.submit(slow); ok {
			return res, st, 0, true
		}
	}
	place, ok = b.slow.submit(slow)
	if !ok {
		b.limits.release(req.UserID, b.now())
		return nil, nil, 0, false
	}
	return res, st, place, true
}

// restartableTimer is a timer that is off until reset, and restarts on
// every reset: a job's deadline, counted from its latest start.
type restartableTimer struct{ t *time.Timer }

func newRestartableTimer() *restartableTimer { return &restartableTimer{} }

func (r *restartableTimer) reset(d time.Duration) {
	if r.t == nil {
		r.t = time.NewTimer(d)
		return
	}
	r.t.Reset(d)
}

// c is the timer's channel, nil (never ready) while it is off.
func (r *restartableTimer) c() <-chan time.Time {
	if r.t == nil {
		return nil
	}
	return r.t.C
}

func (r *restartableTimer) stop() {
	if r.t != nil {
		r.t.Stop()
	}
}
