package mcpserver

// The results of `a0 mcp`'s tools (spec/embedding.md §10.2): the
// structured content once, a short text summary beside it, and a bound on
// what one result carries.

import (
	"encoding/json"
	goruntime "runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime/mcpwire"
)

// MaxDepth bounds the nesting of the structured content. Deeper JSON is
// refused by the parsers of common MCP clients (and by Go's encoding/json
// past 10 000 levels), which would drop the answer: a member that nests
// deeper is omitted like one that is too large.
const MaxDepth = 128

// mcpPreviewBytes bounds the preview of an omitted value.
const mcpPreviewBytes = 64 << 10

// mcpSummaryBytes bounds the value or error quoted in the text summary
// (an eighth of a small --max-result-bytes).
const mcpSummaryBytes = 300

// mcpEnvelope is the room left for the JSON-RPC envelope of a tool result
// ({"jsonrpc":"2.0","id":…,"result":{"content":[{"type":"text","text":…}],
// "structuredContent":…,"isError":true}}) and mcpNoteBytes that for the
// truncation note, so that the whole line fits in --max-result-bytes.
const (
	mcpEnvelope  = 160
	mcpNoteBytes = 200
)

// summaryBytes bounds what the text summary quotes.
func (h *mcpHost) summaryBytes() int { return max(min(mcpSummaryBytes, h.maxResult/8), 16) }

// mcpField is one member of a structured result. A member with a
// non-empty omit may be replaced by omit when the result is too large or
// too deep; preview asks for the start of its JSON text as a string member
// <key>Preview when it is.
type mcpField struct {
	key, val, omit string
	preview        bool
}

// mcpShaped is a structured result fitted to the server's limits.
type mcpShaped struct {
	obj     string   // the structured content
	size    int      // bytes of the full structured content
	omitted []string // the members replaced (empty: nothing was)
	fits    bool     // false: even without its large members it does not fit
}

// shape renders fields as the structured content, omitting members in
// order until it fits in limit bytes and MaxDepth levels.
func shape(fields []mcpField, limit int) mcpShaped {
	kv := make([]string, 0, 2*len(fields)+8)
	for _, f := range fields {
		kv = append(kv, f.key, f.val)
	}
	full := jsonObject(kv...)
	if len(full) <= limit && value.JSONTextDepth(full) <= MaxDepth {
		return mcpShaped{obj: full, size: len(full), fits: true}
	}
	out := mcpShaped{size: len(full)}
	cur := append([]mcpField(nil), fields...)
	previews := map[string]string{}
	for i, f := range cur {
		if f.omit == "" {
			continue
		}
		cur[i].val = f.omit
		out.omitted = append(out.omitted, f.key)
		if f.preview {
			previews[f.key] = f.val
		}
		obj := truncatedObject(cur, out, previews, limit)
		if len(obj) <= limit && value.JSONTextDepth(obj) <= MaxDepth {
			out.obj, out.fits = obj, true
			return out
		}
	}
	return out
}

// truncatedObject renders the members with the truncation members added:
// truncated, size, omitted and the previews, each cut to what the limit
// leaves.
func truncatedObject(fields []mcpField, out mcpShaped, previews map[string]string, limit int) string {
	kv := make([]string, 0, 2*len(fields)+8)
	for _, f := range fields {
		kv = append(kv, f.key, f.val)
	}
	quoted := make([]string, len(out.omitted))
	for i, k := range out.omitted {
		quoted[i] = diag.QuoteJSON(k)
	}
	kv = append(kv, "truncated", "true", "size", strconv.Itoa(out.size), "omitted", jsonArray(quoted))
	base := len(jsonObject(kv...))
	for _, k := range out.omitted {
		text, ok := previews[k]
		if !ok {
			continue
		}
		room := min(limit-base-len(k)-len("Preview")-6, mcpPreviewBytes)
		if room <= 2 {
			continue
		}
		// Quoting may grow the text up to six times (\u00XX): cut until
		// it fits.
		cut := room - 2
		q := diag.QuoteJSON(mcpwire.UTF8Prefix(text, cut))
		for len(q) > room && cut > 0 {
			cut /= 2
			q = diag.QuoteJSON(mcpwire.UTF8Prefix(text, cut))
		}
		kv = append(kv, k+"Preview", q)
		base += len(k) + len("Preview") + len(q) + 4
	}
	return jsonObject(kv...)
}

// note is the sentence that ends the text summary: where the full result
// is, or what was omitted from it (under mcpNoteBytes).
func (s mcpShaped) note(limit int) string {
	if len(s.omitted) == 0 {
		return " The structured content has the full result."
	}
	return " Truncated: " + strings.Join(s.omitted, ", ") + " omitted to fit the server's limit (" +
		strconv.Itoa(limit) + " bytes, " + strconv.Itoa(MaxDepth) + " levels); the full result has " +
		strconv.Itoa(s.size) + " bytes."
}

// result is the tool result of fields: the structured content once, fitted
// with the summary into --max-result-bytes, and the summary as text. A
// result that cannot be fitted at all becomes an error result that says
// so.
func (h *mcpHost) result(fields []mcpField, summary string, isError bool) *mcpwire.CallToolResult {
	return h.resultText(fields, summary, isError, -1)
}

// resultText is result with a text bound (a0_run's maxTextBytes): when
// maxText >= 0 and the whole structured content has at most maxText bytes
// and fits a second time in --max-result-bytes, the text content is that
// JSON itself (as the MCP specification recommends, for clients that read
// only text); otherwise it is the summary, which then says why and that
// the structured content has the whole result.
func (h *mcpHost) resultText(fields []mcpField, summary string, isError bool, maxText int) *mcpwire.CallToolResult {
	s := shape(fields, h.maxResult-mcpEnvelope-mcpNoteBytes-len(diag.QuoteJSON(summary)))
	if !s.fits {
		return errorResult("The result (" + strconv.Itoa(s.size) + " bytes) is over the server's limit of " +
			strconv.Itoa(h.maxResult) + " bytes (a0 mcp --max-result-bytes) or " + strconv.Itoa(MaxDepth) +
			" levels of nesting, even without its largest members; truncated: true.")
	}
	text := summary + s.note(h.maxResult)
	if maxText >= 0 && len(s.omitted) == 0 {
		switch {
		case len(s.obj) <= maxText && mcpEnvelope+len(s.obj)+len(diag.QuoteJSON(s.obj)) <= h.maxResult:
			text = s.obj
		case len(s.obj) > maxText:
			text = summary + " The text is this summary because the result's JSON (" + strconv.Itoa(len(s.obj)) +
				" bytes) is over maxTextBytes (" + strconv.Itoa(maxText) + "); the structured content has the whole result."
		default:
			text = summary + " The text is this summary because the result's JSON (" + strconv.Itoa(len(s.obj)) +
				" bytes) fits the server's limit (" + strconv.Itoa(h.maxResult) + " bytes) only once; the structured content has the whole result."
		}
	}
	return &mcpwire.CallToolResult{
		IsError:           isError,
		StructuredContent: json.RawMessage(s.obj),
		Content:           []mcpwire.Content{&mcpwire.TextContent{Text: text}},
	}
}

// clip returns s, or its first n bytes (whole characters) and "…".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return mcpwire.UTF8Prefix(s, n) + "…"
}

// mcpReleaser hands the memory of a large run back to the system: a
// while after the last call ended, when the heap holds more than
// mcpReleaseOver (mostly the garbage of the values a run built), it
// collects and returns the free pages (debug.FreeOSMemory) instead of
// waiting for the Go runtime's background scavenger, which takes minutes.
type mcpReleaser struct {
	mu    sync.Mutex
	timer *time.Timer
}

// mcpReleaseAfter is the quiet time before the release; mcpReleaseOver
// the retained heap past which it happens.
const (
	mcpReleaseAfter = 200 * time.Millisecond
	mcpReleaseOver  = 64 << 20
)

// callEnded (re)arms the release after an a0_run, a0_check or a0_format
// call (compiling a large source takes much memory too).
func (r *mcpReleaser) callEnded() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.timer != nil {
		r.timer.Reset(mcpReleaseAfter)
		return
	}
	r.timer = time.AfterFunc(mcpReleaseAfter, func() {
		var m goruntime.MemStats
		goruntime.ReadMemStats(&m)
		if m.HeapSys-m.HeapReleased > mcpReleaseOver {
			debug.FreeOSMemory()
		}
	})
}
