package mcpwire

import (
	"encoding/json"
	"errors"
	"fmt"
)

// The MCP types a0 sends and reads, with the protocol's JSON names. Fields
// a0 has no use for are left out: decoding ignores them, and a0 never
// sends them.

// Meta is the "_meta" member of params and results.
type Meta map[string]any

// MetaKeyLogLevel is the _meta key of a tools/call by which a client asks
// for the call's log messages at that level (an a0 extension, also read by
// the SDK).
const MetaKeyLogLevel = "io.modelcontextprotocol/logLevel"

// Implementation names a client or a server.
type Implementation struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

// InitializeParams are the params of "initialize".
type InitializeParams struct {
	ProtocolVersion string             `json:"protocolVersion"`
	Capabilities    ClientCapabilities `json:"capabilities"`
	ClientInfo      *Implementation    `json:"clientInfo"`
	Meta            Meta               `json:"_meta,omitempty"`
}

// ClientCapabilities are what a client offers the server.
type ClientCapabilities struct {
	Roots *struct {
		ListChanged bool `json:"listChanged,omitempty"`
	} `json:"roots,omitempty"`
}

// InitializeResult is the answer to "initialize".
type InitializeResult struct {
	ProtocolVersion string             `json:"protocolVersion"`
	Capabilities    ServerCapabilities `json:"capabilities"`
	ServerInfo      *Implementation    `json:"serverInfo"`
	Instructions    string             `json:"instructions,omitempty"`
	Meta            Meta               `json:"_meta,omitempty"`
}

// ServerCapabilities are what a server offers.
type ServerCapabilities struct {
	Logging   *struct{}             `json:"logging,omitempty"`
	Tools     *ToolCapabilities     `json:"tools,omitempty"`
	Resources *ResourceCapabilities `json:"resources,omitempty"`
	Prompts   *struct {
		ListChanged bool `json:"listChanged,omitempty"`
	} `json:"prompts,omitempty"`
}

// ToolCapabilities describe a server's tools.
type ToolCapabilities struct {
	ListChanged bool `json:"listChanged,omitempty"`
}

// ResourceCapabilities describe a server's resources.
type ResourceCapabilities struct {
	Subscribe   bool `json:"subscribe,omitempty"`
	ListChanged bool `json:"listChanged,omitempty"`
}

// Tool is one entry of tools/list.
type Tool struct {
	Name         string           `json:"name"`
	Title        string           `json:"title,omitempty"`
	Description  string           `json:"description,omitempty"`
	InputSchema  json.RawMessage  `json:"inputSchema"`
	OutputSchema json.RawMessage  `json:"outputSchema,omitempty"`
	Annotations  *ToolAnnotations `json:"annotations,omitempty"`
	Meta         Meta             `json:"_meta,omitempty"`
}

// ToolAnnotations are a tool's behaviour hints.
type ToolAnnotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    bool   `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  bool   `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// ListParams are the params of the list methods.
type ListParams struct {
	Cursor string `json:"cursor,omitempty"`
	Meta   Meta   `json:"_meta,omitempty"`
}

// ListToolsResult is a page of tools/list.
type ListToolsResult struct {
	Tools      []*Tool `json:"tools"`
	NextCursor string  `json:"nextCursor,omitempty"`
}

// CallToolParams are the params of tools/call.
type CallToolParams struct {
	Name      string `json:"name"`
	Arguments any    `json:"arguments,omitempty"`
	Meta      Meta   `json:"_meta,omitempty"`
}

// CallToolResult is the answer to tools/call. StructuredContent is kept
// as the JSON text the server sent, so the order of its members is kept.
type CallToolResult struct {
	Content           []Content       `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
	Meta              Meta            `json:"_meta,omitempty"`
}

// UnmarshalJSON reads a result, its content items by their "type".
func (r *CallToolResult) UnmarshalJSON(data []byte) error {
	var w struct {
		Content           []json.RawMessage `json:"content"`
		StructuredContent json.RawMessage   `json:"structuredContent"`
		IsError           bool              `json:"isError"`
		Meta              Meta              `json:"_meta"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	r.Content = make([]Content, 0, len(w.Content))
	for _, raw := range w.Content {
		c, err := DecodeContent(raw)
		if err != nil {
			return err
		}
		r.Content = append(r.Content, c)
	}
	if string(w.StructuredContent) == "null" {
		w.StructuredContent = nil
	}
	r.StructuredContent, r.IsError, r.Meta = w.StructuredContent, w.IsError, w.Meta
	return nil
}

// MarshalJSON writes a result; absent content is an empty list, as the
// protocol requires the member.
func (r *CallToolResult) MarshalJSON() ([]byte, error) {
	type plain CallToolResult
	p := plain(*r)
	if p.Content == nil {
		p.Content = []Content{}
	}
	return json.Marshal(&p)
}

// Content is one item of a tool result: *TextContent, *ImageContent,
// *AudioContent, *ResourceLink or *EmbeddedResource.
type Content interface {
	contentType() string
}

// Annotations are a content item's audience and priority hints.
type Annotations struct {
	Audience     []string `json:"audience,omitempty"`
	Priority     float64  `json:"priority,omitempty"`
	LastModified string   `json:"lastModified,omitempty"`
}

// TextContent is text.
type TextContent struct {
	Text        string       `json:"text"`
	Annotations *Annotations `json:"annotations,omitempty"`
	Meta        Meta         `json:"_meta,omitempty"`
}

// ImageContent is an image; Data is its base64 text.
type ImageContent struct {
	Data        string       `json:"data"`
	MIMEType    string       `json:"mimeType"`
	Annotations *Annotations `json:"annotations,omitempty"`
	Meta        Meta         `json:"_meta,omitempty"`
}

// AudioContent is audio; Data is its base64 text.
type AudioContent struct {
	Data        string       `json:"data"`
	MIMEType    string       `json:"mimeType"`
	Annotations *Annotations `json:"annotations,omitempty"`
	Meta        Meta         `json:"_meta,omitempty"`
}

// ResourceLink points at a resource without its contents.
type ResourceLink struct {
	URI         string       `json:"uri"`
	Name        string       `json:"name"`
	Title       string       `json:"title,omitempty"`
	Description string       `json:"description,omitempty"`
	MIMEType    string       `json:"mimeType,omitempty"`
	Size        *int64       `json:"size,omitempty"`
	Annotations *Annotations `json:"annotations,omitempty"`
	Meta        Meta         `json:"_meta,omitempty"`
}

// EmbeddedResource carries a resource's contents.
type EmbeddedResource struct {
	Resource    *ResourceContents `json:"resource"`
	Annotations *Annotations      `json:"annotations,omitempty"`
	Meta        Meta              `json:"_meta,omitempty"`
}

func (*TextContent) contentType() string      { return "text" }
func (*ImageContent) contentType() string     { return "image" }
func (*AudioContent) contentType() string     { return "audio" }
func (*ResourceLink) contentType() string     { return "resource_link" }
func (*EmbeddedResource) contentType() string { return "resource" }

// typed writes a content item with its "type" member first.
func typed(kind string, v any) ([]byte, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	head := `{"type":"` + kind + `"`
	if string(body) == "{}" {
		return []byte(head + "}"), nil
	}
	return append([]byte(head+","), body[1:]...), nil
}

// MarshalJSON writes the item with its type.
func (c *TextContent) MarshalJSON() ([]byte, error) {
	type plain TextContent
	return typed("text", (*plain)(c))
}

// MarshalJSON writes the item with its type.
func (c *ImageContent) MarshalJSON() ([]byte, error) {
	type plain ImageContent
	return typed("image", (*plain)(c))
}

// MarshalJSON writes the item with its type.
func (c *AudioContent) MarshalJSON() ([]byte, error) {
	type plain AudioContent
	return typed("audio", (*plain)(c))
}

// MarshalJSON writes the item with its type.
func (c *ResourceLink) MarshalJSON() ([]byte, error) {
	type plain ResourceLink
	return typed("resource_link", (*plain)(c))
}

// MarshalJSON writes the item with its type.
func (c *EmbeddedResource) MarshalJSON() ([]byte, error) {
	type plain EmbeddedResource
	return typed("resource", (*plain)(c))
}

// DecodeContent reads one content item by its "type".
func DecodeContent(raw json.RawMessage) (Content, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, err
	}
	var c Content
	switch head.Type {
	case "text":
		c = new(TextContent)
	case "image":
		c = new(ImageContent)
	case "audio":
		c = new(AudioContent)
	case "resource_link":
		c = new(ResourceLink)
	case "resource":
		c = new(EmbeddedResource)
	case "":
		return nil, errors.New("a content item has no type")
	default:
		return nil, fmt.Errorf("unknown content type %q", head.Type)
	}
	// The concrete types' own MarshalJSON is not involved in decoding.
	if err := json.Unmarshal(raw, c); err != nil {
		return nil, err
	}
	return c, nil
}

// Resource is one entry of resources/list.
type Resource struct {
	URI         string       `json:"uri"`
	Name        string       `json:"name"`
	Title       string       `json:"title,omitempty"`
	Description string       `json:"description,omitempty"`
	MIMEType    string       `json:"mimeType,omitempty"`
	Size        *int64       `json:"size,omitempty"`
	Annotations *Annotations `json:"annotations,omitempty"`
	Meta        Meta         `json:"_meta,omitempty"`
}

// ResourceTemplate is one entry of resources/templates/list.
type ResourceTemplate struct {
	URITemplate string       `json:"uriTemplate"`
	Name        string       `json:"name"`
	Title       string       `json:"title,omitempty"`
	Description string       `json:"description,omitempty"`
	MIMEType    string       `json:"mimeType,omitempty"`
	Annotations *Annotations `json:"annotations,omitempty"`
	Meta        Meta         `json:"_meta,omitempty"`
}

// ListResourcesResult is a page of resources/list.
type ListResourcesResult struct {
	Resources  []*Resource `json:"resources"`
	NextCursor string      `json:"nextCursor,omitempty"`
}

// ListResourceTemplatesResult is a page of resources/templates/list.
type ListResourceTemplatesResult struct {
	ResourceTemplates []*ResourceTemplate `json:"resourceTemplates"`
	NextCursor        string              `json:"nextCursor,omitempty"`
}

// ReadResourceParams are the params of resources/read.
type ReadResourceParams struct {
	URI  string `json:"uri"`
	Meta Meta   `json:"_meta,omitempty"`
}

// ReadResourceResult is the answer to resources/read.
type ReadResourceResult struct {
	Contents []*ResourceContents `json:"contents"`
	Meta     Meta                `json:"_meta,omitempty"`
}

// ResourceContents is a resource's text or its base64 blob.
type ResourceContents struct {
	URI      string `json:"uri"`
	MIMEType string `json:"mimeType,omitempty"`
	Text     string `json:"text,omitempty"`
	Blob     string `json:"blob,omitempty"`
	Meta     Meta   `json:"_meta,omitempty"`
}

// LoggingLevel is a syslog level name: debug, info, notice, warning,
// error, critical, alert or emergency.
type LoggingLevel string

// SetLoggingLevelParams are the params of logging/setLevel.
type SetLoggingLevelParams struct {
	Level LoggingLevel `json:"level"`
	Meta  Meta         `json:"_meta,omitempty"`
}

// LoggingMessageParams are the params of notifications/message.
type LoggingMessageParams struct {
	Level  LoggingLevel `json:"level"`
	Logger string       `json:"logger,omitempty"`
	Data   any          `json:"data"`
	Meta   Meta         `json:"_meta,omitempty"`
}

// ProgressNotificationParams are the params of notifications/progress.
type ProgressNotificationParams struct {
	ProgressToken any     `json:"progressToken"`
	Progress      float64 `json:"progress"`
	Total         float64 `json:"total,omitempty"`
	Message       string  `json:"message,omitempty"`
	Meta          Meta    `json:"_meta,omitempty"`
}

// CancelledParams are the params of notifications/cancelled.
type CancelledParams struct {
	RequestID ID     `json:"requestId"`
	Reason    string `json:"reason,omitempty"`
}

// Method names a0 sends or answers.
const (
	MethodInitialize            = "initialize"
	MethodInitialized           = "notifications/initialized"
	MethodPing                  = "ping"
	MethodListTools             = "tools/list"
	MethodCallTool              = "tools/call"
	MethodListResources         = "resources/list"
	MethodListResourceTemplates = "resources/templates/list"
	MethodReadResource          = "resources/read"
	MethodSetLevel              = "logging/setLevel"
	MethodListRoots             = "roots/list"
	NotifyProgress              = "notifications/progress"
	NotifyMessage               = "notifications/message"
	NotifyCancelled             = "notifications/cancelled"
)

// Protocol versions: LatestProtocolVersion is what a0 asks for and
// offers; a peer may answer with any of SupportedProtocolVersions.
const LatestProtocolVersion = "2025-11-25"

// SupportedProtocolVersions lists the versions a0 accepts, newest first.
var SupportedProtocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}
