package main

// The terminal side of `a0 repl`: a thin lineReader over chzyer/readline
// (spec/cli.md §13.2). Everything else about the session lives in repl.go.

import (
	"io"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/chzyer/readline"
)

// readlineLines reads lines with editing, history and completion. It is
// only ever used from the goroutine that runs the session loop.
type readlineLines struct {
	rl *readline.Instance
}

// newReadlineLines starts the line editor on the terminal f. history is
// the history file ("" for none); complete returns the word before the
// cursor and its completions.
func newReadlineLines(f *os.File, stdout, stderr io.Writer, history string, complete func(head string) (string, []string)) (*readlineLines, error) {
	if history != "" {
		if err := os.MkdirAll(filepath.Dir(history), 0o700); err != nil {
			history = ""
		}
	}
	// readline answers Ctrl-C while Tab's candidate list is shown by only
	// closing the list: the line stays and no interrupt is returned, so the
	// next input was appended to the abandoned word. The filter closes the
	// list first, then lets Ctrl-C clear the line and interrupt as it does
	// elsewhere. It runs on readline's own input goroutine, the one that
	// owns the completion state; op is set once NewEx has returned.
	var op atomic.Pointer[readline.Operation]
	filter := func(r rune) (rune, bool) {
		if o := op.Load(); o != nil && r == readline.CharInterrupt && o.IsInCompleteMode() {
			o.ExitCompleteMode(false)
		}
		return r, true
	}
	rl, err := readline.NewEx(&readline.Config{
		FuncFilterInputRune:    filter,
		Prompt:                 replPrompt,
		HistoryFile:            history,
		DisableAutoSaveHistory: true, // one entry per complete input (addHistory)
		AutoComplete:           completer(complete),
		Stdin:                  readline.NewCancelableStdin(f), // Close must not close the terminal
		Stdout:                 stdout,
		Stderr:                 stderr,
	})
	if err != nil {
		return nil, err
	}
	op.Store(rl.Operation)
	return &readlineLines{rl: rl}, nil
}

func (l *readlineLines) readLine(prompt string) (string, error) {
	l.rl.SetPrompt(prompt)
	line, err := l.rl.Readline()
	if err == readline.ErrInterrupt {
		return "", errInterrupt
	}
	if err != nil {
		return "", io.EOF
	}
	return line, nil
}

func (l *readlineLines) addHistory(entry string) { l.rl.SaveHistory(entry) }

func (l *readlineLines) close() { l.rl.Close() }

// completer adapts a completion function to readline.AutoCompleter.
type completer func(head string) (string, []string)

// Do implements readline.AutoCompleter: it returns what each candidate
// adds after the word before the cursor, and the word's length.
func (f completer) Do(line []rune, pos int) ([][]rune, int) {
	word, cands := f(string(line[:pos]))
	n := len([]rune(word))
	out := make([][]rune, 0, len(cands))
	for _, c := range cands {
		out = append(out, []rune(c)[n:])
	}
	return out, n
}
