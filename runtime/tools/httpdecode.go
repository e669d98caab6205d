package tools

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
	"net/http"
	"strings"
)

// acceptEncoding is what http.get asks for, as Node's fetch does. Setting it
// by hand turns off net/http's transparent gzip, which would also drop the
// response's content-encoding and content-length headers from the result.
const acceptEncoding = "gzip, deflate"

// errTerminated is Node's fetch error for a body it could not decode.
var errTerminated = errors.New("terminated")

// maxCodings bounds the Content-Encoding codings undone for one response.
const maxCodings = 5

var errTooManyCodings = errors.New("too many content-encodings in the response (at most 5 are decoded)")

// decodeBody undoes the response's Content-Encoding the way Node's fetch
// does: the codings are applied in reverse order; gzip (x-gzip) and deflate
// (zlib-wrapped or raw) are decoded; any other coding, identity included,
// leaves the body as received; a body of a status without one (204, 205,
// 304) is not decoded. A body cut short decodes to what it holds, as with
// Node's sync flush; corrupt data is errTerminated. At most limit+1 decoded
// bytes are returned, so the caller can tell an over-limit body.
func decodeBody(status int, h http.Header, body []byte, limit int64) ([]byte, error) {
	ce := strings.ToLower(strings.Join(h.Values("Content-Encoding"), ","))
	if ce == "" || len(body) == 0 || status == 204 || status == 205 || status == 304 {
		return body, nil
	}
	codings := strings.Split(ce, ",")
	if len(codings) > maxCodings {
		// Each layer may expand to the limit: a chain as long as a
		// header allows would be hours of decompression (undici, the
		// fetch of Node, refuses more than five too).
		return nil, errTooManyCodings
	}
	for i := range codings {
		codings[i] = strings.TrimSpace(codings[i])
		switch codings[i] {
		case "gzip", "x-gzip", "deflate":
		default:
			return body, nil
		}
	}
	for i := len(codings) - 1; i >= 0; i-- {
		var r io.Reader
		var err error
		switch {
		case len(body) == 0:
			continue
		case codings[i] == "deflate" && body[0]&0x0f == 0x08:
			r, err = zlib.NewReader(bytes.NewReader(body))
		case codings[i] == "deflate":
			r = flate.NewReader(bytes.NewReader(body))
		default:
			r, err = gzip.NewReader(bytes.NewReader(body))
		}
		if err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				body = nil
				continue
			}
			return nil, errTerminated
		}
		out, err := io.ReadAll(io.LimitReader(r, limit+1))
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, errTerminated
		}
		body = out
	}
	return body, nil
}
