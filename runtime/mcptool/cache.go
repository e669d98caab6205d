package mcptool

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/a0lang/a0/runtime/mcpwire"
	"github.com/a0lang/a0/runtime/policy"
	"github.com/a0lang/a0/runtime/proc"
)

// The schema cache (spec/mcp.md §8) keeps the tools each local or remote
// server listed the last time a0 started it — names, modes, descriptions,
// input and output schemas — so that `a0 check` can judge calls of MCP
// tools without starting any server.
const (
	// SchemaCacheFile is the cache's file name inside its folder.
	SchemaCacheFile = "mcp-schemas.json"
	// cacheFormat is the "a0SchemaCache" member of the file.
	cacheFormat = 1
	// maxCacheBytes bounds the file: a larger one is not read, and an
	// update that would make it larger drops the oldest entries.
	maxCacheBytes = 4 << 20
	// maxCacheEntry bounds one server's entry (a server with larger
	// schemas is not cached).
	maxCacheEntry = 1 << 20
	// maxCacheServers bounds the entries kept (the oldest go first).
	maxCacheServers = 64
	// CacheMaxAge is how long an entry is used after it was written.
	CacheMaxAge = 30 * 24 * time.Hour
)

// SchemaCache is the schema cache file in a folder. A nil *SchemaCache
// caches nothing.
type SchemaCache struct {
	dir string
	now func() time.Time
}

// NewSchemaCache returns the cache kept in dir (the file SchemaCacheFile
// there); nil when dir is "".
func NewSchemaCache(dir string) *SchemaCache {
	if dir == "" {
		return nil
	}
	return &SchemaCache{dir: dir, now: time.Now}
}

// Path returns the cache file's path.
func (c *SchemaCache) Path() string { return filepath.Join(c.dir, SchemaCacheFile) }

// cacheFile is the file's JSON.
type cacheFile struct {
	Format  int           `json:"a0SchemaCache"`
	Servers []*cacheEntry `json:"servers"`
}

// cacheEntry is what one server listed. Key is a digest of how the server
// is reached (cacheKey); neither its command line nor its environment is
// written.
type cacheEntry struct {
	Key     string `json:"key"`
	Server  string `json:"server"`
	Written string `json:"written"`
	// ServerName and ServerVersion are the serverInfo the server reported.
	ServerName    string `json:"serverName,omitempty"`
	ServerVersion string `json:"serverVersion,omitempty"`
	// Complete is true when the server was listed without a tools
	// allowlist: a name missing from Tools is not one of its tools.
	Complete bool         `json:"complete"`
	Tools    []*cacheTool `json:"tools"`
}

// cacheTool is one listed tool, by its server name.
type cacheTool struct {
	Name         string          `json:"name"`
	ReadOnly     bool            `json:"readOnly,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema,omitempty"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	// NotCallable: a0 refuses the tool's input schema (spec/mcp.md §5.3) or two
	// tools map to its A0 name; it is listed, never checked against.
	NotCallable bool `json:"notCallable,omitempty"`
}

// cacheKey is the digest that identifies a server configuration: its
// command line, working folder, URL, the names of the variables set in
// its environment, its tools allowlist, and the size and modification
// time of its executable (so a rebuilt server is not judged by the old
// one's schemas). "" when the server cannot be keyed (a session the host
// connected itself).
func cacheKey(c *ServerConfig) string {
	if len(c.Command) == 0 && c.URL == "" {
		return ""
	}
	var envNames []string
	for _, kv := range c.Env {
		envNames = append(envNames, kv[0])
	}
	sort.Strings(envNames)
	k := struct {
		Command []string `json:"command,omitempty"`
		Dir     string   `json:"dir,omitempty"`
		URL     string   `json:"url,omitempty"`
		Env     []string `json:"env,omitempty"`
		Tools   []string `json:"tools,omitempty"`
		Exe     string   `json:"exe,omitempty"`
	}{c.Command, c.Dir, c.URL, envNames, c.Tools, exeStamp(c)}
	b, _ := json.Marshal(k)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// exeStamp is "path size mtime" of a local server's executable as a0
// would find it ("" when it is not found).
func exeStamp(c *ServerConfig) string {
	if len(c.Command) == 0 {
		return ""
	}
	name := c.Command[0]
	var cands []string
	if strings.Contains(name, "/") {
		if !filepath.IsAbs(name) {
			dir := c.Dir
			if dir == "" {
				dir = c.Exec.WorkDir
			}
			name = filepath.Join(dir, name)
		}
		cands = []string{name}
	} else {
		path := os.Getenv("PATH")
		for _, kv := range c.Exec.BaseEnv {
			if p, ok := strings.CutPrefix(kv, "PATH="); ok {
				path = p
			}
		}
		for _, d := range filepath.SplitList(path) {
			if d != "" {
				cands = append(cands, filepath.Join(d, name))
			}
		}
	}
	for _, p := range cands {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p + " " + strconv.FormatInt(fi.Size(), 10) + " " + strconv.FormatInt(fi.ModTime().UnixNano(), 10)
		}
	}
	return ""
}

// readCacheFile reads the cache file without following a symbolic link
// or blocking on a FIFO, only a regular file of at most maxCacheBytes, in
// a folder private to this user. Any problem reads as an empty cache.
func (c *SchemaCache) read() *cacheFile {
	empty := &cacheFile{Format: cacheFormat}
	fi, err := os.Lstat(c.dir)
	if err != nil || !fi.IsDir() {
		return empty
	}
	if _, err := proc.OpenStore(proc.Config{StoreDir: c.dir}); err != nil {
		return empty // another user's folder, or one others may write
	}
	f, err := openNoFollow(c.Path())
	if err != nil {
		return empty
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxCacheBytes {
		return empty
	}
	data, err := io.ReadAll(io.LimitReader(f, maxCacheBytes+1))
	if err != nil || len(data) > maxCacheBytes {
		return empty
	}
	var cf cacheFile
	if json.Unmarshal(data, &cf) != nil || cf.Format != cacheFormat {
		return empty
	}
	out := empty
	for _, e := range cf.Servers {
		if e != nil && e.Key != "" {
			out.Servers = append(out.Servers, e)
		}
	}
	return out
}

// lookup returns the usable entry for key: written at most CacheMaxAge
// ago (and not in the future).
func (c *SchemaCache) lookup(cf *cacheFile, key string) *cacheEntry {
	if key == "" {
		return nil
	}
	for _, e := range cf.Servers {
		if e.Key != key {
			continue
		}
		t, err := time.Parse(time.RFC3339, e.Written)
		now := c.now()
		if err != nil || now.Sub(t) > CacheMaxAge || t.After(now.Add(time.Minute)) {
			return nil
		}
		return e
	}
	return nil
}

// store replaces the entry of e.Key and writes the file atomically: a
// temporary file in the same folder, renamed over the old one (a
// symbolic link there is replaced, never followed). The folder is created
// private to this user; one that is not private is left alone.
func (c *SchemaCache) store(e *cacheEntry) error {
	// Servers listed at once (a session's start) update the file one
	// after the other, so none loses another's entry.
	storeMu.Lock()
	defer storeMu.Unlock()
	if b, err := json.Marshal(e); err != nil || len(b) > maxCacheEntry {
		return errors.New("the entry is too large to cache")
	}
	if _, err := proc.OpenStore(proc.Config{StoreDir: c.dir}); err != nil {
		return err
	}
	cf := c.read()
	kept := []*cacheEntry{e}
	for _, old := range cf.Servers {
		if old.Key != e.Key {
			kept = append(kept, old)
		}
	}
	sort.SliceStable(kept[1:], func(i, j int) bool { return kept[1+i].Written > kept[1+j].Written })
	if len(kept) > maxCacheServers {
		kept = kept[:maxCacheServers]
	}
	var data []byte
	for {
		var err error
		data, err = json.Marshal(&cacheFile{Format: cacheFormat, Servers: kept})
		if err != nil {
			return err
		}
		if len(data) <= maxCacheBytes || len(kept) == 1 {
			break
		}
		kept = kept[:len(kept)-1] // drop the oldest
	}
	tmp, err := os.CreateTemp(c.dir, ".mcp-schemas-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), c.Path())
}

// storeMu serialises this process's updates of cache files.
var storeMu sync.Mutex

// SetSchemaCache makes the manager use c: every server it lists is
// recorded there, and the tools of servers it has not started take their
// modes and schemas from it. Call it before the manager is used.
func (m *Manager) SetSchemaCache(c *SchemaCache) {
	m.cache = c
}

// cached returns the cache's usable entry for s (nil when none), reading
// the file once per manager.
func (m *Manager) cached(s *server) *cacheEntry {
	if m == nil || m.cache == nil || s.external {
		return nil
	}
	m.cacheOnce.Do(func() { m.cacheData = m.cache.read() })
	s.keyOnce.Do(func() { s.key = cacheKey(&s.cfg) })
	return m.cache.lookup(m.cacheData, s.key)
}

// cachedTool returns the cached tool of s with the A0 name name.
func (m *Manager) cachedTool(s *server, name string) *cacheTool {
	e := m.cached(s)
	if e == nil {
		return nil
	}
	for _, t := range e.Tools {
		if policy.ToolName(s.cfg.Name, t.Name) == name {
			return t
		}
	}
	return nil
}

// record writes what s just listed to the cache (s.mu held). The text the
// server sent is masked as everywhere else; a failure to write is not an
// error of the run.
func (m *Manager) record(s *server, cs *mcpwire.ClientSession) {
	if m == nil || m.cache == nil || s.external {
		return
	}
	s.keyOnce.Do(func() { s.key = cacheKey(&s.cfg) })
	if s.key == "" {
		return
	}
	e := &cacheEntry{Key: s.key, Server: s.cfg.Name, Written: m.cache.now().UTC().Format(time.RFC3339), Complete: s.cfg.Tools == nil}
	if ir := cs.InitializeResult(); ir != nil && ir.ServerInfo != nil {
		e.ServerName, e.ServerVersion = s.maskText(ir.ServerInfo.Name), s.maskText(ir.ServerInfo.Version)
	}
	for _, en := range s.sortedEntries() {
		t := &cacheTool{Name: en.remote, ReadOnly: en.readOnly, Description: en.desc, NotCallable: en.refused != "" || len(en.collision) > 0}
		if !t.NotCallable {
			t.InputSchema, t.OutputSchema = maskJSON(s, en.schema), maskJSON(s, en.output)
		}
		e.Tools = append(e.Tools, t)
		for _, other := range en.collision {
			if other != en.remote {
				e.Tools = append(e.Tools, &cacheTool{Name: other, NotCallable: true})
			}
		}
	}
	_ = m.cache.store(e)
}

// maskJSON masks the secrets of the server's environment in a schema; a
// schema that masking would break is dropped.
func maskJSON(s *server, raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	out := json.RawMessage(s.maskText(string(raw)))
	if !json.Valid(out) {
		return nil
	}
	return out
}

// cacheState is the cache's part of a Manager and of a server.
type cacheState struct {
	cache     *SchemaCache
	cacheOnce sync.Once
	cacheData *cacheFile
}

type serverCacheState struct {
	keyOnce sync.Once
	key     string
}

// StaticSchemas implements runtime.StaticSchemer: the input and output
// schemas of the tool as its server listed them in this process, else as
// the schema cache holds them; nil when unknown (or when a0 does not
// check arguments against the input schema itself, spec/mcp.md §5.3).
func (t *Tool) StaticSchemas() (input, output json.RawMessage) {
	if e := t.srv.entry(t.name); e != nil {
		if e.checker != nil {
			input = e.schema
		}
		return input, e.output
	}
	if t.srv.isListed() {
		return nil, nil
	}
	ct := t.m.cachedTool(t.srv, t.name)
	if ct == nil || ct.NotCallable {
		return nil, nil
	}
	input = ct.InputSchema
	if len(input) > 0 {
		if why, unsure := schemaProblem(input); why != "" || unsure {
			input = nil
		}
	}
	return input, ct.OutputSchema
}

// cachedMode returns the mode the cache records for the tool.
func (t *Tool) cachedMode() (readOnly, ok bool) {
	if t.m == nil {
		return false, false
	}
	ct := t.m.cachedTool(t.srv, t.name)
	if ct == nil {
		return false, false
	}
	return ct.ReadOnly, true
}

// isListed reports whether the server's tools are known from a listing
// in this process.
func (s *server) isListed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.listed
}

// cachedNames returns the A0 names of the tools the cache holds for a
// server listed without an allowlist, or nil.
func (m *Manager) cachedNames(s *server) []string {
	e := m.cached(s)
	if e == nil || !e.Complete {
		return nil
	}
	var out []string
	for _, t := range e.Tools {
		if n := policy.ToolName(s.cfg.Name, t.Name); !contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// UsedCache reports whether any tool of the named servers took its mode or
// schema from the cache rather than from a listing (a0 run lists such a
// server again before it reports a static error, in case the entry is
// stale).
func (m *Manager) UsedCache(name string) bool {
	s := m.lookup(name)
	return s != nil && !s.isListed() && m.cached(s) != nil
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
