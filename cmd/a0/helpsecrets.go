package main

// topicSecretsName is the "a0 help secrets" topic; its text is a separate
// string so it can move with the other topic texts.
const topicSecretsName = "secrets"

// topicSecrets is the text of "a0 help secrets" (without the final newline).
const topicSecrets = `A0 SECRETS
==========

A program can use a credential without ever seeing it. The policy names the
secret, where a0 reads it and where it may go; the program writes a
placeholder, and a0 puts the value in only at the tool boundary.

POLICY
  { "allow": ["sh.exec", "http.get"],
    "exec": { "allow": ["gh"], "sandbox": { "network": "deny" } },
    "secrets": {
      "GH": { "from": { "env": "GH_TOKEN" },
              "to": ["sh.exec:gh", "http.get:api.github.com"] } } }

  from   exactly one of
           { "env": "VAR" }            a variable of a0's environment
           { "file": "path" }          relative to the policy's folder; a
                                       regular file of at most 64 KiB
           { "command": ["argv", …] }  its stdout (no shell, 10 s, 64 KiB)
         One final newline is dropped. The value is read at first use, once
         per run.
  to     where the value may go:
           "sh.exec:PROGRAM"   sh.exec and sh.start running PROGRAM (a bare
                               name or absolute path, matched as exec.allow
                               entries are; in cmd mode the shell)
           "http.get:HOST"     http.get header values, host as in http.allow
           "mcp:SERVER"        the env of that server's mcp entry

PLACEHOLDERS
  "${secret:NAME}" is replaced in
    sh.exec / sh.start   env values, argv items after the program, stdin
                         (cmd mode: env and stdin only, never the cmd text)
    http.get             header values
    mcp entries          env values (checked when the policy loads)
  Anywhere else it is plain text.

  cap { sh.exec: true }
  do sh.exec { argv: ["gh", "api", "user"], env: { GH_TOKEN: "${secret:GH}" } } -> r
  do sh.exec { cmd: "curl -H \"Authorization: Bearer $T\" …", env: { T: "${secret:GH}" } } -> r2

REFUSALS
  A placeholder for a program or host the secret's "to" does not list, for a
  secret the policy does not define, or in cmd text or argv[0], is refused
  before anything starts: E_CAP_DENIED, reason secret_not_allowed, details
  { secret, destination }, and the "to" entry that would allow it.
  A value that cannot be read is E_TOOL, reason secret_unavailable.

NEVER SEEN
  The value never becomes an A0 value and never reaches the trace, the
  evidence, a diagnostic, an MCP result or the job store (they keep the
  placeholder). In command output, job logs, http.get responses and MCP
  results and errors, every occurrence is [masked:NAME], also its JSON,
  URL-encoded and base64 forms when they are 8 bytes or longer. The "from"
  env variable is never passed to commands or MCP servers.

WHAT IT DOES NOT STOP
  A command that gets a secret can send it anywhere it can reach. Give
  secrets only to allowlisted programs under exec.sandbox with network
  "deny", never to a shell or interpreter. a0 policy lists every secret's
  source and destinations (never a value) and warns about shells, unconfined
  commands and sandboxes with network access.

See spec/security.md ("Secrets an agent can use but never see") and
spec/cli.md §5.8.`
