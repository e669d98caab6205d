package proc

// Jobs is the registry of a run's background jobs (EXEC.md §6).
type Jobs struct {
	engine *Engine
}

// NewJobs returns an empty registry for the engine's run.
func NewJobs(e *Engine) *Jobs { return &Jobs{engine: e} }

// CloseAll stops every running job with the given reason and waits until
// all are terminal (run-end cleanup, EXEC.md §6.8).
func (j *Jobs) CloseAll(reason string) {}
