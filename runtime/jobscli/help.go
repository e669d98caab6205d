package jobscli

// helpText is the text of `a0 jobs --help` and `a0 help jobs`.
const helpText = `Usage: a0 jobs [--root DIR] [--policy FILE] <subcommand> [flags]

Jobs that outlive the command that starts them, kept in a job store. Each
job is owned by a small supervisor (a0 itself, in its own session) that
holds the command's process group, writes its output to the store, applies
its timeout and stop sequence, and exits when the job ends. A program
starts the same jobs with do sh.start { ..., detach: true } and reads them
with sh.status, sh.tail, sh.wait and sh.jobs { scope: "store" }.

Every subcommand prints one JSON object on stdout:
  { "schemaVersion": 1, "ok": true, "type": "<subcommand>", ... }
  { "schemaVersion": 1, "ok": false, "type": "...", "error": { "code", "message", "hint" } }
"job" is the job record of sh.status; diagnostics go to stderr.
Exit codes: 0 ok, 1 usage, 3 refused by the policy, 4 failure.

Subcommands:
  run [flags] -- CMD ARGS...      start a job (argv, no shell)
  run [flags] --cmd "TEXT"        start a job through the shell
      --snapshot-after MS         return after MS (default 10000; 0: at once)
                                  or earlier when the job ends
      --wait                      return when the job ends
      --tail-lines N --max-bytes N   the output snapshot (50 lines, 65536 bytes)
  create [flags] -- CMD ARGS...   record a job without starting it (state
  create [flags] --cmd "TEXT"     created; --env-file is read at start)
  start ID [--snapshot-after MS] [--wait] [--tail-lines N] [--max-bytes N]
                                  start a created job under the policy now
  status ID                       the job record
  tail ID [--stream stdout|stderr|both] [--lines N] [--max-bytes N] [--offset N]
  wait ID [--timeout MS]          wait for the end (default: no limit);
                                  waitTimedOut tells whether it came
  kill ID [--signal TERM|INT|HUP|KILL] [--grace MS]
                                  stop sequence of a detached job: the signal,
                                  then SIGKILL after the grace period
  list [--state running|terminal|created|all] [--tag T] [--limit N]
                                  jobs newest first, count, truncated
  gc [--older-than 30d|24h|60m|3600s] [--dry-run]
                                  delete terminal jobs finished before then
                                  (default: exec.jobStore.retainDays); running
                                  jobs are never touched
  notify set ID [--command SH] [--file PATH] [--output-pattern P]
      [--output-match-type contains|regex] [--output-stream stdout|stderr|either]
      [--output-command SH] [--output-file PATH]
                                  change a running job's notifications

Flags of run and create:
  --cwd DIR  --env K=V (repeatable)  --env-file FILE  --mask NAME
  --timeout MS  --kill-after MS (grace between TERM and KILL)  --tag T
  --shell NAME  --notify-command SH  --notify-file PATH  --policy FILE

Notifications (run by the supervisor, best effort):
  completion: one job.finished event (schemaVersion, eventType, jobId,
  state, exitCode, signal, cmd, argv, cwd, startedAt, finishedAt,
  durationMs, stdoutLogPath, stderrLogPath) to a command (through the
  job's shell and policy; the event on stdin, A0_JOB_ID, A0_EVENT_TYPE,
  A0_EVENT_PATH set) and/or a file (one NDJSON line appended); kept in
  the job folder as completion_event.json with each sink's result.
  output match: a job.output.matched event (plus pattern, matchType,
  stream, line) for every new line that matches (contains or RE2 regex),
  kept in notification_events.ndjson. A failing sink never changes the job.

The store: --root DIR, else $A0_JOBS_ROOT, else the policy's
exec.jobStore.dir, else $XDG_DATA_HOME/a0/jobs (~/.local/share/a0/jobs).

Policy: run, create, start, kill and notify set need a policy (--policy FILE, else ./.a0policy.json,
else ~/.a0/policy.json) that allows "sh.exec". The command is checked,
masked and confined (exec.sandbox) exactly as sh.start checks it in a0 run.

Examples:
  a0 jobs run --tag build --snapshot-after 0 -- make -j4
  a0 jobs tail j_0123456789abcdef --lines 20
  a0 jobs wait j_0123456789abcdef --timeout 600000
  a0 jobs gc --older-than 24h --dry-run
  a0 jobs notify set j_0123456789abcdef --output-pattern ERROR --output-file errors.ndjson
`

// Help is the text of `a0 jobs --help`, which `a0 help jobs` prints too.
func Help() string { return helpText }
