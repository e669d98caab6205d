package tools

import (
	"strings"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/policy"
)

// The policy is out of the policed program's reach: fs.write never
// writes, replaces or removes a policy file. Which file a write would
// replace is decided where the write happens, on the folder it resolved
// to (its device and inode, after `..` and symbolic links) and the final
// name, so neither a link nor `..` nor another spelling of the path can
// lead a write onto the policy.

// policyFileError is a write refused because it would replace a policy
// file: Protected is the policy file it would have replaced ("" for a
// file named .a0policy.json).
type policyFileError struct{ Protected string }

func (e *policyFileError) Error() string { return "policy file: " + e.Protected }

// isPolicyName reports whether name is the project policy's file name
// (compared without case: on a case-insensitive file system the other
// spellings are the same file).
func isPolicyName(name string) bool { return strings.EqualFold(name, policy.ProjectFile) }

// policyFileRefusal is the E_CAP_DENIED error of a write onto a policy
// file (reason policy_file).
func policyFileRefusal(c *runtime.Call, path, protected string) error {
	d := value.NewRecord(4)
	d.Set("capability", value.Str("fs.write"))
	d.Set("tool", value.Str(c.Tool))
	d.Set("reason", value.Str("policy_file"))
	d.Set("path", value.Str(path))
	msg := "Capability 'fs.write' does not allow '" + path + "': "
	if protected == "" {
		msg += "it is a policy file (" + policy.ProjectFile + "), which the file tools never write, replace or delete"
	} else {
		d.Set("policyFile", value.Str(protected))
		msg += "it is the policy file '" + protected + "', which the file tools never write, replace or delete"
	}
	hint := "A program cannot change the policy it runs under. Write to another name; to change the policy, edit it outside a0."
	return &runtime.Error{Diagnostic: *diag.New(diag.ECapDenied, c.Span, msg, hint), Details: value.RecordOf(d)}
}
