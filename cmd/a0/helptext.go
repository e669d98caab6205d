package main

// Help output of the a0 CLI (spec/cli.md §11): the Commander-style usage texts
// of "a0 --help" and "a0 <command> --help". The reference topics of
// "a0 help [topic] [--index]" are embedded text files in runtime/help.

import (
	"strings"

	"github.com/a0lang/a0/runtime/help"
	"github.com/a0lang/a0/runtime/jobscli"
)

// helpItem is one "term  description" line of a Commander help text.
type helpItem struct{ term, desc string }

// helpFormatCommander lays out a Commander help text: the usage line, the
// description, then the Arguments, Options and Commands blocks. All terms
// share one column, the longest term plus two spaces.
func helpFormatCommander(usage, desc string, args, opts, cmds []helpItem) string {
	width := 0
	for _, list := range [][]helpItem{args, opts, cmds} {
		for _, it := range list {
			width = max(width, len(it.term))
		}
	}
	var b strings.Builder
	b.WriteString("Usage: " + usage + "\n\n" + desc + "\n")
	block := func(title string, items []helpItem) {
		if len(items) == 0 {
			return
		}
		b.WriteString("\n" + title + ":\n")
		for _, it := range items {
			b.WriteString("  " + it.term + strings.Repeat(" ", width+2-len(it.term)) + it.desc + "\n")
		}
	}
	block("Arguments", args)
	block("Options", opts)
	block("Commands", cmds)
	return b.String()
}

// topLevelHelp is the output of "a0 --help" (and, on stderr, of a bare
// "a0"): the command list, an empty line, then the quick reference.
func topLevelHelp() string {
	opts := []helpItem{
		{"-V, --version", "print the version number"},
		{"-h, --help", "show help for a command"},
	}
	var cmds []helpItem
	for _, c := range cliCommands {
		cmds = append(cmds, helpItem{c.term(), c.Summary})
	}
	head := helpFormatCommander("a0 [options] [command]",
		"A0: run, check, format and trace programs written in the A0 agent language",
		nil, opts, cmds)
	return head + "\n" + help.QuickReference() + "\n"
}

// commandHelp is the output of "a0 <cmd> --help"; "" for an unknown
// command.
func commandHelp(cmd string) string {
	c := cliLookup(cmd)
	if c == nil {
		return ""
	}
	usage := "a0 " + c.term()
	var args []helpItem
	if c.Arg != "" {
		args = append(args, helpItem{strings.TrimSuffix(c.Arg, "..."), c.ArgDesc})
	}
	var opts []helpItem
	for _, o := range c.Opts {
		opts = append(opts, helpItem{o.flags(), o.Desc})
	}
	opts = append(opts, helpItem{"-h, --help", "show help for this command"})
	return helpFormatCommander(usage, c.Desc, args, opts, nil)
}

// helpTopic is help.Topic, plus "a0 help jobs": a0 jobs is a command, not
// a language topic, and prints its own help (a0 jobs --help). The name of
// another command (a0 help run) is not a topic either; its usage block
// then ends with the line that shows that command's help.
func helpTopic(topic string, index bool) (out, errOut string, code int) {
	if strings.TrimSpace(topic) == "jobs" && !index {
		return jobscli.Help(), "", 0
	}
	out, errOut, code = help.Topic(topic, index)
	if code != 0 && !index {
		if c := cliLookup(strings.ToLower(strings.TrimSpace(topic))); c != nil {
			errOut += "  a0 " + c.Name + " --help    (" + c.Name + " is a command: its usage and options)\n"
		}
	}
	return out, errOut, code
}
