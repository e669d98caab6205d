// Package started records when the process started, as early as Go lets a
// package see the clock: it imports only package time, so by the
// language's rule for initialization order (packages sorted by import
// path, each initialized once its imports are) it runs before nearly every
// other package's initialization, about as soon as package time is ready.
// Package proc exposes it as [proc.Started].
package started

import "time"

// At is the time this package was initialized: the start of the process,
// less the Go runtime's own start-up (a fraction of a millisecond).
var At = time.Now()
