// Package jscompat holds what a0 does only to behave as the JavaScript
// reference implementation does, where Go's own behaviour differs. Each
// piece is byte-for-byte compatibility, not language design:
//
//   - nodeerr.go: Node.js texts of file-system errors ("ENOENT: no such
//     file or directory, open 'x'"), which E_IO and tool messages carry
//     ([NodeErrorText], [IsErrno]);
//   - date.go: V8's Date.parse ([ParseDate]), which `a0 trace` uses to
//     subtract a trace's first and last timestamps; spec/cli.md §7.3 lists
//     the forms it must read.
//
// The rest of the emulation is part of A0's own semantics (spec/ defines
// strings and number text as JavaScript's) and stays with the data it
// serves, in files named for it:
//
//   - lang/value/jsnumber.go: number to text as Number#toString;
//   - lang/value/utf16.go: UTF-16 string semantics on WTF-8 strings;
//   - lang/diag/quote.go: string quoting as JSON.stringify (lang/diag
//     imports nothing of the project, and lang/value uses it);
//   - runtime/trace/writer.go, FormatTime: timestamps as Date#toISOString.
//
// The package imports only lang/value (for UTF-16 code units).
package jscompat
