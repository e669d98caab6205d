package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// readmeCommand is one command line of a README `sh` block, with the exit
// code its comment declares (`# exit 2`, else 0) and the output shown
// under it, if any.
type readmeCommand struct {
	line   int
	block  int // index of the sh block it is in
	cmd    string
	exit   int
	output []string
}

var exitComment = regexp.MustCompile(`#\s*exit (\d+)`)

// readmeCommands extracts the command lines of README's ```sh blocks. A
// line starting with "$ " is a command whose expected output is the lines
// after it up to the next command; other lines are commands. Comments
// (outside quotes) and blank lines are dropped.
func readmeCommands(readme string) []readmeCommand {
	var out []readmeCommand
	in := false
	prompt := false
	block := 0
	for i, raw := range strings.Split(readme, "\n") {
		line := strings.TrimSpace(raw)
		switch {
		case !in && line == "```sh":
			in, prompt = true, false
			block++
			continue
		case in && line == "```":
			in = false
			continue
		case !in || line == "" || strings.HasPrefix(line, "#"):
			continue
		}
		isPrompt := strings.HasPrefix(line, "$ ")
		if prompt && !isPrompt && len(out) > 0 {
			last := &out[len(out)-1]
			last.output = append(last.output, line)
			continue
		}
		if isPrompt {
			prompt = true
			line = strings.TrimPrefix(line, "$ ")
		}
		cmd, comment := splitComment(line)
		c := readmeCommand{line: i + 1, block: block, cmd: cmd}
		if m := exitComment.FindStringSubmatch(comment); m != nil {
			c.exit, _ = strconv.Atoi(m[1])
		}
		out = append(out, c)
	}
	return out
}

// splitComment cuts a shell line at its first " #" outside quotes.
func splitComment(line string) (cmd, comment string) {
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && i > 0 && (line[i-1] == ' ' || line[i-1] == '\t'):
			return strings.TrimSpace(line[:i]), line[i:]
		}
	}
	return line, ""
}

// TestREADMECommands runs every command line of README.md's sh blocks in a
// copy of the repository's tracked files, as a new user would in a fresh
// clone: each must exit with the code its comment gives (0 when none), and
// print the output shown under it (" …" in the shown output stands for
// any text). `go test` itself is not run again. Every examples/*.a0 must
// be run by one of the lines.
func TestREADMECommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the CLI and runs the README (-short)")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	cmds := readmeCommands(string(readme))
	if len(cmds) < 10 {
		t.Fatalf("found only %d command lines in README.md", len(cmds))
	}
	clone := copyTracked(t, root)
	home := t.TempDir()
	// HOME is a new directory (no user policy), but the go command keeps
	// its module and build caches: nothing is downloaded again. bin/ is
	// not put on PATH: a new user has no a0 there, so every line must name
	// the binary it runs.
	goEnv := []string{"HOME=" + home, "NO_COLOR=1", "PATH=" + pathWithoutA0(os.Getenv("PATH"))}
	if out, err := exec.Command("go", "env", "GOMODCACHE", "GOCACHE", "GOPATH").Output(); err == nil {
		vals := strings.Split(strings.TrimSpace(string(out)), "\n")
		for i, k := range []string{"GOMODCACHE", "GOCACHE", "GOPATH"} {
			if i < len(vals) && vals[i] != "" {
				goEnv = append(goEnv, k+"="+vals[i])
			}
		}
	}

	examples, _ := filepath.Glob(filepath.Join(root, "examples", "*.a0"))
	for _, ex := range examples {
		rel := "examples/" + filepath.Base(ex)
		found := false
		for _, c := range cmds {
			if strings.Contains(c.cmd, " run ") && strings.Contains(c.cmd, rel) {
				found = true
			}
		}
		if !found {
			t.Errorf("README gives no run command for %s", rel)
		}
	}

	// A `cd DIR` line changes the directory of the lines after it in its
	// block, as it does for a person typing them; each block starts at the
	// top of the clone.
	dir, block := clone, 0
	for _, c := range cmds {
		if c.block != block {
			dir, block = clone, c.block
		}
		if strings.HasPrefix(c.cmd, "go test") {
			continue // this is that command
		}
		if rest, ok := strings.CutPrefix(c.cmd, "cd "); ok && !strings.ContainsAny(rest, ";&|") {
			dir = filepath.Join(dir, strings.TrimSpace(rest))
			if st, err := os.Stat(dir); err != nil || !st.IsDir() {
				t.Errorf("README.md:%d: %s: no such directory", c.line, c.cmd)
			}
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		cmd := exec.CommandContext(ctx, "bash", "-c", c.cmd)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), goEnv...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		start := time.Now()
		err := cmd.Run()
		cancel()
		t.Logf("README.md:%d: %s (%v)", c.line, c.cmd, time.Since(start).Round(time.Millisecond))
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Errorf("README.md:%d: %s: %v", c.line, c.cmd, err)
			continue
		}
		if code != c.exit {
			t.Errorf("README.md:%d: %s: exit %d, want %d\n%s", c.line, c.cmd, code, c.exit, out.String())
			continue
		}
		for _, want := range c.output {
			if !matchesShown(out.String(), want) {
				t.Errorf("README.md:%d: %s: output\n%s\ndoes not show\n%s", c.line, c.cmd, out.String(), want)
			}
		}
	}
	if st, err := exec.Command("git", "-C", clone, "status", "--porcelain", "--untracked-files=all").Output(); err == nil {
		for _, l := range strings.Split(strings.TrimSpace(string(st)), "\n") {
			if l != "" && !strings.HasSuffix(l, " bin/a0") {
				t.Errorf("the README's commands left %q behind", l)
			}
		}
	}
}

// matchesShown reports whether got contains the shown output want, where
// " …" stands for any text.
func matchesShown(got, want string) bool {
	for _, part := range strings.Split(want, " …") {
		i := strings.Index(got, part)
		if i < 0 {
			return false
		}
		got = got[i+len(part):]
	}
	return true
}

// copyTracked copies the files git tracks under root into a new directory
// that is itself a git repository (so a leftover file shows as untracked).
func copyTracked(t *testing.T, root string) string {
	t.Helper()
	ls, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	dst := t.TempDir()
	for _, f := range strings.Split(strings.TrimRight(string(ls), "\x00"), "\x00") {
		src := filepath.Join(root, f)
		st, err := os.Lstat(src)
		if err != nil || !st.Mode().IsRegular() {
			continue // deleted in the work tree, or not a plain file
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dst, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, st.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=a0", "-c", "user.email=a0@localhost", "commit", "-qm", "copy"}} {
		c := exec.Command("git", args...)
		c.Dir = dst
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dst
}

// TestReadmeCommandsParse pins the extraction rules on a small README.
func TestReadmeCommandsParse(t *testing.T) {
	src := "text\n```sh\nls -l   # list\n# only a comment\n$ a0 check x.a0   # exit 2\n[{\"code\" …}]\n$ echo '#not a comment'\n```\n```json\n{}\n```\n"
	got := readmeCommands(src)
	if len(got) != 3 || got[0].cmd != "ls -l" || got[1].cmd != "a0 check x.a0" || got[1].exit != 2 ||
		len(got[1].output) != 1 || got[2].cmd != "echo '#not a comment'" {
		t.Fatalf("got %+v", got)
	}
	if !matchesShown(`[{"code":"E_X"}]`, `[{"code" …}]`) || matchesShown("abc", "abd") {
		t.Error("matchesShown")
	}
}

// pathWithoutA0 returns the PATH list without the folders that hold an
// a0 (testscript puts the test binary there as a0), so that a README line
// that runs a bare `a0` fails here as it would for a new user.
func pathWithoutA0(path string) string {
	var keep []string
	for _, dir := range filepath.SplitList(path) {
		if _, err := os.Stat(filepath.Join(dir, "a0")); err == nil {
			continue
		}
		keep = append(keep, dir)
	}
	return strings.Join(keep, string(os.PathListSeparator))
}
