package bot

import (
	"sync"
	"sync/atomic"
)

// pool runs jobs on a fixed number of goroutines with a bounded queue, so
// a burst queues (or is turned away) instead of starving the process: the
// engine is CPU-bound, so more workers than cores would only make every
// job slower. The bot has two (see lanes.go): a fast lane for work that
// takes milliseconds and a slow lane for the rest.
type pool struct {
	workers int
	jobs    chan func()
	wg      sync.WaitGroup
	running atomic.Int64

	mu     sync.RWMutex
	closed bool
}

func newPool(workers, queue int) *pool {
	p := &pool{workers: workers, jobs: make(chan func(), queue)}
	p.wg.Add(workers)
	for range workers {
		go func() {
			defer p.wg.Done()
			for job := range p.jobs {
				p.running.Add(1)
				job()
				p.running.Add(-1)
			}
		}()
	}
	return p
}

// submit queues job and reports whether it was accepted, and its place in
// line: 0 when a worker is free for it, n when it waits behind n-1 others.
// It never blocks. It refuses when the queue is full or the pool is
// closed.
func (p *pool) submit(job func()) (place int, ok bool) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.closed {
		return 0, false
	}
	busy := int(p.running.Load()) + len(p.jobs)
	select {
	case p.jobs <- job:
		return max(busy-p.workers+1, 0), true
	default:
		return 0, false
	}
}

// queued is the number of jobs waiting for a worker.
func (p *pool) queued() int { return len(p.jobs) }

// close stops taking jobs and waits for the workers to finish the queued
// ones. Jobs are expected to honour their contexts, which the caller
// cancels when it can wait no longer.
func (p *pool) close() {
	p.mu.Lock()
	if !p.closed {
		p.closed = true
		close(p.jobs)
	}
	p.mu.Unlock()
	p.wg.Wait()
}
