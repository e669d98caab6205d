package main

import (
	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/runtime/jobscli"
	"github.com/a0lang/a0/runtime/policy"
)

// jobsCmd runs `a0 jobs <args>` (runtime/jobscli) under the command's one
// policy resolution: --policy FILE, else the usual discovery, resolved
// once by loadPolicy.
func (c *cli) jobsCmd(args []string) int {
	return jobscli.Run(args, jobscli.Options{
		Stdout: c.stdout, Stderr: c.stderr, Version: version,
		Policy: func(file string) (*policy.Resolved, string, *diag.Diagnostic) {
			if file != "" {
				c.inv.Values = map[optName]string{optPolicy: file}
			}
			cp := c.loadPolicy(false)
			return cp.res, cp.wd, cp.err
		},
	})
}
