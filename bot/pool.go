package bot

import "sync"

// pool runs heavy jobs on a fixed number of goroutines with a bounded queue,
// so a burst of hard puzzles queues (or is turned away) instead of starving
// the process: the engine is CPU-bound, so more workers than GOMAXPROCS
// would only make every job slower.
type pool struct {
	jobs chan func()
	wg   sync.WaitGroup

	mu     sync.RWMutex
	closed bool
}

func newPool(workers, queue int) *pool {
	p := &pool{jobs: make(chan func(), queue)}
	p.wg.Add(workers)
	for range workers {
		go func() {
			defer p.wg.Done()
			for job := range p.jobs {
				job()
			}
		}()
	}
	return p
}

// submit queues job and reports whether it was accepted; it never blocks.
// It returns false when the queue is full or the pool is closed.
func (p *pool) submit(job func()) bool {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.closed {
		return false
	}
	select {
	case p.jobs <- job:
		return true
	default:
		return false
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
